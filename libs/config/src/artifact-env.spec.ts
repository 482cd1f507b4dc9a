import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { artifactEnv, artifactEnvProblems } from './artifact-env.js';
import { loadConfig } from './load-config.js';

const schema = z.object(artifactEnv);
const load = (env: NodeJS.ProcessEnv) =>
  loadConfig('jobs-api', schema, env, { sensitive: ['S3_SECRET_ACCESS_KEY'] });

describe('artifact settings', () => {
  it('default to the shared directory, proxied downloads', () => {
    const config = load({});
    expect(config).toMatchObject({
      ARTIFACTS_DIR: '.data/artifacts',
      ARTIFACT_DOWNLOAD: 'proxy',
      ARTIFACT_PRESIGN_TTL_S: 300,
      S3_FORCE_PATH_STYLE: false,
    });
    expect(config.ARTIFACT_STORE).toBeUndefined();
    expect(artifactEnvProblems(config)).toEqual([]);
  });

  it('accept a complete S3 setup', () => {
    const config = load({
      S3_BUCKET: 'runner-artifacts',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: 'prod/runner/',
      ARTIFACT_DOWNLOAD: 'presigned',
    });
    expect(artifactEnvProblems(config)).toEqual([]);
    expect(config.S3_FORCE_PATH_STYLE).toBe(true);
  });

  it('name the variable of a bad value', () => {
    expect(() =>
      load({
        ARTIFACT_STORE: 'gcs',
        S3_BUCKET: 'Bad_Bucket',
        S3_ENDPOINT: 'minio:9000',
        ARTIFACT_PRESIGN_TTL_S: '999999',
        S3_PREFIX: '/abs',
        S3_SECRET_ACCESS_KEY: '',
      }),
    ).toThrow(
      /ARTIFACT_STORE must be local or s3 \(got "gcs"\)[\s\S]*ARTIFACT_PRESIGN_TTL_S must be ≤ 604800[\s\S]*S3_BUCKET must be an S3 bucket name[\s\S]*S3_ENDPOINT must be an http\(s\) URL[\s\S]*S3_PREFIX must not start with \//,
    );
  });

  it('report settings that do not fit together', () => {
    expect(artifactEnvProblems(load({ ARTIFACT_STORE: 's3' }))).toEqual([
      'S3_BUCKET is required when ARTIFACT_STORE=s3 (got unset)',
    ]);
    expect(artifactEnvProblems(load({ ARTIFACT_DOWNLOAD: 'presigned' }))).toEqual([
      expect.stringMatching(/^ARTIFACT_DOWNLOAD=presigned needs the S3 artifact store/),
    ]);
    expect(artifactEnvProblems(load({ S3_BUCKET: 'runner-artifacts', S3_ACCESS_KEY_ID: 'id' }))).toEqual([
      expect.stringMatching(/^S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/),
    ]);
    // An explicit local store ignores the bucket: presigned links cannot work then.
    expect(
      artifactEnvProblems(
        load({ ARTIFACT_STORE: 'local', S3_BUCKET: 'runner-artifacts', ARTIFACT_DOWNLOAD: 'presigned' }),
      ),
    ).toHaveLength(1);
  });
});
