import { OmittableBoolean, RequiredText, Rule } from './control-plane-fields.js';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A host name as stored: lower-cased, without a trailing dot. */
export const normaliseDomain = (domain: string): string => domain.toLowerCase().replace(/\.$/, '');

const labelsOf = (value: unknown): string[] =>
  typeof value === 'string' ? normaliseDomain(value).split('.') : [];

/** Body of `POST /v1/projects/{projectId}/domains`. */
export class AddDomainDto {
  @RequiredText(
    { max: 253, trim: true },
    {
      description: 'A host name such as app.example.com (lower-cased, without a trailing dot).',
      example: 'app.example.com',
    },
    Rule(
      'hostName',
      (value) => {
        const labels = labelsOf(value);
        return labels.length >= 2 && labels.every((label) => LABEL.test(label));
      },
      'must be a host name such as app.example.com (letters, digits, hyphens and dots)',
    ),
    Rule(
      'notIpAddress',
      (value) => !/^\d+$/.test(labelsOf(value).at(-1) ?? ''),
      'must be a host name, not an IP address',
    ),
  )
  domain!: string;

  @OmittableBoolean({
    description: 'Mark it verified without the DNS check (honoured only with DOMAIN_VERIFIED_BY_ADMIN).',
    default: false,
    example: false,
  })
  verified?: boolean;
}
