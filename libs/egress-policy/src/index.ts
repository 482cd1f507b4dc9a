export {
  type AllowEntry,
  type EgressDecision,
  EgressPolicy,
  type EgressPolicyOptions,
  NETWORK_MODES,
  type NetworkMode,
  normalizeHost,
  parseAllowList,
  parseNetworkMode,
} from './egress-policy.js';
export {
  ADDRESS_CLASS_LABEL,
  type AddressClass,
  type Cidr,
  classifyAddress,
  classifyIp,
  embeddedIpv4,
  inCidr,
  isPrivateAddress,
  parseCidr,
  parseIp,
  type ParsedIp,
} from './ip-address.js';
export { pinnedRequest, type PinnedRequestOptions, type PinnedResponse } from './pinned-request.js';
export {
  createHostResolver,
  dnsServerProblems,
  EgressBlockedError,
  type HostResolver,
  isPinnedAddress,
  type PinnedAddresses,
  pinnedLookup,
  resolveChecked,
} from './pinned-resolution.js';
export { navigationSchemeProblem, ALLOWED_NAVIGATION_SCHEMES } from './url-schemes.js';
