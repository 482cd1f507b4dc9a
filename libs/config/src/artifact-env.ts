import { z } from 'zod';
import { envFields } from './env-fields.js';

/**
 * Where job artifacts (agent log, video) live: the shared directory (default) or an S3-compatible
 * bucket. Read by jobs-api, agent-gateway and browser-worker; all three must agree.
 */
export const artifactEnv = {
  /** The shared artifact directory; with S3, the worker's scratch space while a job runs. */
  ARTIFACTS_DIR: z.string().min(1).default('.data/artifacts'),
  /** `local` or `s3`; unset means `s3` when S3_BUCKET is set, else `local`. */
  ARTIFACT_STORE: z.enum(['local', 's3'], { error: 'must be local or s3' }).optional(),
  /** How jobs-api serves a video from S3: stream it itself, or redirect to a presigned URL. */
  ARTIFACT_DOWNLOAD: z.enum(['proxy', 'presigned'], { error: 'must be proxy or presigned' }).default('proxy'),
  /** Lifetime of a presigned download URL, in seconds (S3 allows at most 7 days). */
  ARTIFACT_PRESIGN_TTL_S: envFields.positiveInt(300).pipe(z.number().max(604_800, 'must be ≤ 604800')),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 of a-z 0-9 . -)')
    .optional(),
  /** S3-compatible endpoint (MinIO, R2, Ceph…); unset means AWS S3. */
  S3_ENDPOINT: envFields.httpUrl().optional(),
  S3_REGION: z.string().min(1).optional(),
  /** Both or neither; unset means the AWS default credential chain (env, profile, IAM role). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** `true` for most self-hosted servers (http://host/bucket/key instead of bucket.host). */
  S3_FORCE_PATH_STYLE: envFields.bool(false),
  /** Key prefix inside the bucket, e.g. `runner/`; objects are `<prefix>jobs/<id>/<file>`. */
  S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "may only hold letters, digits and !_.*'()/-")
    .refine((v) => !v.startsWith('/'), 'must not start with /')
    .optional(),
};
export const ARTIFACT_SENSITIVE = ['S3_SECRET_ACCESS_KEY'] as const;

type ArtifactEnv = z.infer<z.ZodObject<typeof artifactEnv>>;

/** Rules across variables; each problem names the variables involved, as loadConfig does. */
export function artifactEnvProblems(config: ArtifactEnv): string[] {
  const problems: string[] = [];
  const store = config.ARTIFACT_STORE ?? (config.S3_BUCKET ? 's3' : 'local');
  if (store === 's3' && !config.S3_BUCKET) {
    problems.push('S3_BUCKET is required when ARTIFACT_STORE=s3 (got unset)');
  }
  if (store === 'local' && config.ARTIFACT_DOWNLOAD === 'presigned') {
    problems.push(
      'ARTIFACT_DOWNLOAD=presigned needs the S3 artifact store: set S3_BUCKET (and ARTIFACT_STORE=s3)',
    );
  }
  if (Boolean(config.S3_ACCESS_KEY_ID) !== Boolean(config.S3_SECRET_ACCESS_KEY)) {
    problems.push(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS default credential chain)',
    );
  }
  return problems;
}
