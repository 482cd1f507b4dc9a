// AuthSecrets moved to @suite/project-runtime (the project worker opens sealed mails with it).
export {
  AuthSecrets,
  looksLikeToken,
  randomToken,
  sha256Hex,
  type SecretPurpose,
} from '@suite/project-runtime';
