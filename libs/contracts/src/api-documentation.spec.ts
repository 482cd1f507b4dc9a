import { describe, expect, it } from '@jest/globals';
import { DECORATORS } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import * as a2aPushConfigParams from './a2a/push-config-params.dto.js';
import * as a2aSendParams from './a2a/send-message-params.dto.js';
import * as a2aTaskParams from './a2a/task-params.dto.js';
import * as contracts from './index.js';

type PropertyDoc = { required?: boolean; example?: unknown; type?: unknown; default?: unknown };

/** A2A method params: validated with class-validator too, but their document is the A2A spec (and the agent card), not OpenAPI. */
const a2aParams = new Set<unknown>(
  [a2aPushConfigParams, a2aSendParams, a2aTaskParams].flatMap((module) => Object.values(module)),
);

const dtoClasses = Object.entries(contracts as Record<string, unknown>).filter(
  (entry): entry is [string, new () => object] =>
    typeof entry[1] === 'function' && /^[A-Z]\w*Dto$/.test(entry[0]) && !a2aParams.has(entry[1]),
);

function documented(dto: new () => object): Map<string, PropertyDoc> {
  const names: string[] = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype) ?? [];
  return new Map(
    names.map((name) => {
      const property = name.replace(/^:/, '');
      return [
        property,
        Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, dto.prototype, property) as PropertyDoc,
      ];
    }),
  );
}

describe('OpenAPI metadata of the contracts', () => {
  it('exports the DTOs the apps document', () => {
    expect(dtoClasses.map(([name]) => name).sort()).toEqual(
      [
        'AddDomainDto',
        'AdminTokenCheckDto',
        'AuthSettingsDto',
        'CancelJobResultDto',
        'CodeDto',
        'CreateJobDto',
        'CreateProjectDto',
        'CreateSuiteDto',
        'DependencyCheckDto',
        'EmailsQueryDto',
        'FailingStepDto',
        'FlippingTestDto',
        'ForgotPasswordDto',
        'HealthChecksDto',
        'HealthDto',
        'HttpErrorDto',
        'HttpValidationErrorDto',
        'JobIdArgsDto',
        'JobLinksDto',
        'JobListDto',
        'JobRecordDto',
        'JobStepDto',
        'ListJobsArgsDto',
        'ListJobsQueryDto',
        'ListSuiteRunsQueryDto',
        'LoginDto',
        'MagicLinkQueryDto',
        'MoveProjectDto',
        'PageQueryDto',
        'QueueSnapshotDto',
        'RefreshDto',
        'RegisterDto',
        'ResetPasswordDto',
        'RunBrowserTestArgsDto',
        'SendTestMailDto',
        'SmtpSettingsDto',
        'SuiteListDto',
        'SuiteOverviewDto',
        'SuiteOverviewListDto',
        'SuiteOverviewQueryDto',
        'SuiteRecordDto',
        'SuiteRunBriefDto',
        'SuiteRunDto',
        'SuiteRunListDto',
        'SuiteRunTestDto',
        'SuiteTestDto',
        'UpdateMeDto',
        'UserErrorDto',
        'UsersQueryDto',
        'ValidateFormDto',
        'ValidationIssueDto',
      ].sort(),
    );
  });

  it.each(dtoClasses)('%s documents every property with an example or a nested schema', (_name, dto) => {
    const docs = documented(dto);
    expect(docs.size).toBeGreaterThan(0);
    for (const [property, doc] of docs) {
      const nested =
        typeof doc.type === 'function' && !['String', 'Number', 'Boolean'].includes(doc.type.name);
      expect({ property, hasExample: 'example' in doc || nested }).toEqual({ property, hasExample: true });
    }
  });

  it.each(dtoClasses)('%s documents every field it validates', (_name, dto) => {
    const validated = getMetadataStorage()
      .getTargetValidationMetadatas(dto, '', true, false)
      .map((metadata) => metadata.propertyName);
    const docs = documented(dto);
    for (const property of new Set(validated)) expect(docs.has(property)).toBe(true);
  });

  it('marks only query as required in the job creation request, with the spec defaults', () => {
    const docs = documented(contracts.CreateJobDto);
    expect([...docs.keys()]).toEqual(['query', 'initial_url', 'model', 'env', 'highlight_mouse', 'metadata']);
    expect([...docs].filter(([, doc]) => doc.required !== false).map(([name]) => name)).toEqual(['query']);
    expect(docs.get('initial_url')!.default).toBe('https://duckduckgo.com/');
    expect(docs.get('env')).toMatchObject({
      default: 'local_browser',
      pattern: '^(local_browser|hosted_browser)$',
    });
    expect(docs.get('highlight_mouse')!.default).toBe(true);
    expect(documented(contracts.ListJobsQueryDto).get('limit')).toMatchObject({
      default: 50,
      minimum: 1,
      maximum: 200,
    });
  });
});
