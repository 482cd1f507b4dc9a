import { S3Client } from '@aws-sdk/client-s3';
import { LocalArtifactStore, type ArtifactStore } from './artifact-store.js';
import { S3ArtifactStore } from './s3-artifact-store.js';

/** The artifact settings of `artifactEnv` (@suite/config), as every process parses them. */
export interface ArtifactStoreConfig {
  ARTIFACTS_DIR: string;
  ARTIFACT_STORE?: 'local' | 's3';
  ARTIFACT_DOWNLOAD: 'proxy' | 'presigned';
  ARTIFACT_PRESIGN_TTL_S: number;
  S3_BUCKET?: string;
  S3_ENDPOINT?: string;
  S3_REGION?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE: boolean;
  S3_PREFIX?: string;
}

/** The shared directory unless S3 is chosen (ARTIFACT_STORE=s3, or S3_BUCKET set). */
export function createArtifactStore(config: ArtifactStoreConfig): ArtifactStore {
  const kind = config.ARTIFACT_STORE ?? (config.S3_BUCKET ? 's3' : 'local');
  if (kind === 'local') return new LocalArtifactStore(config.ARTIFACTS_DIR);
  if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required when ARTIFACT_STORE=s3');
  const client = new S3Client({
    endpoint: config.S3_ENDPOINT,
    // S3-compatible servers rarely care about the region; AWS itself resolves it from AWS_REGION/profile.
    region: config.S3_REGION ?? (config.S3_ENDPOINT ? 'us-east-1' : undefined),
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined, // the AWS default chain: env, shared profile, web identity, instance/task role
    // Many S3-compatible servers reject the SDK's default request checksums (CRC32 trailers).
    ...(config.S3_ENDPOINT
      ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
      : {}),
  });
  return new S3ArtifactStore({
    client,
    bucket: config.S3_BUCKET,
    prefix: config.S3_PREFIX,
    stagingDir: config.ARTIFACTS_DIR,
    download: config.ARTIFACT_DOWNLOAD,
    presignTtlSeconds: config.ARTIFACT_PRESIGN_TTL_S,
  });
}
