import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiQuery,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import {
  CreateSuiteDto,
  HttpErrorDto,
  HttpValidationErrorDto,
  ListSuiteRunsQueryDto,
  RUNNER_INPUT,
  SUITE_RUNS_LIMIT_DEFAULT,
  SUITE_RUNS_LIMIT_MAX,
  SUITE_OVERVIEW_RUNS_DEFAULT,
  SUITE_OVERVIEW_RUNS_MAX,
  SuiteListDto,
  SuiteOverviewListDto,
  SuiteOverviewQueryDto,
  SuiteRecordDto,
  SuiteRunDto,
  SuiteRunListDto,
} from '@suite/contracts';
import type { Principal } from '@suite/jobs';
import { SuiteService, type SuiteData } from '@suite/suites';
import { CurrentPrincipal } from '../auth/principal.decorator.js';
import { RunnerApi } from '../auth/runner-api.decorator.js';
import { SuiteInputPipe } from './suite-input.pipe.js';

@RunnerApi('suites')
@ApiUnprocessableEntityResponse({ description: 'Validation error.', type: HttpValidationErrorDto })
@Controller('v1/suites')
export class SuitesController {
  constructor(private readonly suites: SuiteService) {}

  @Post()
  @ApiBody({ type: CreateSuiteDto })
  @ApiCreatedResponse({ description: 'The suite is stored (and scheduled).', type: SuiteRecordDto })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(SuiteInputPipe) suite: SuiteData,
  ): Promise<SuiteRecordDto> {
    return this.suites.create(principal, suite);
  }

  @Get()
  @ApiQuery({ name: 'name', required: false, description: 'Only the suite of this exact name.' })
  @ApiOkResponse({ description: 'Your suites, by name.', type: SuiteListDto })
  list(@CurrentPrincipal() principal: Principal, @Query('name') name?: string): Promise<SuiteListDto> {
    return this.suites.list(principal, typeof name === 'string' ? name : undefined);
  }

  @Get('overview')
  @ApiQuery({
    name: 'runs',
    required: false,
    schema: {
      type: 'integer',
      minimum: 2,
      maximum: SUITE_OVERVIEW_RUNS_MAX,
      default: SUITE_OVERVIEW_RUNS_DEFAULT,
    },
  })
  @ApiOkResponse({
    description:
      'Your suites by name, each with its last runs, the pass rate over them and the tests that flip between passing and failing (the hub’s suites page).',
    type: SuiteOverviewListDto,
  })
  overview(
    @CurrentPrincipal() principal: Principal,
    @Query(RUNNER_INPUT) query: SuiteOverviewQueryDto,
  ): Promise<SuiteOverviewListDto> {
    return this.suites.overview(principal, query);
  }

  @Get(':suite_id')
  @ApiOkResponse({ type: SuiteRecordDto })
  @ApiNotFoundResponse({ type: HttpErrorDto })
  get(@CurrentPrincipal() principal: Principal, @Param('suite_id') id: string): Promise<SuiteRecordDto> {
    return this.suites.get(principal, id);
  }

  @Put(':suite_id')
  @ApiBody({ type: CreateSuiteDto })
  @ApiOkResponse({ description: 'The suite is replaced by the body.', type: SuiteRecordDto })
  @ApiNotFoundResponse({ type: HttpErrorDto })
  replace(
    @CurrentPrincipal() principal: Principal,
    @Param('suite_id') id: string,
    @Body(SuiteInputPipe) suite: SuiteData,
  ): Promise<SuiteRecordDto> {
    return this.suites.replace(principal, id, suite);
  }

  @Delete(':suite_id')
  @ApiOkResponse({
    description: 'The suite, its schedule and its runs are deleted; the jobs stay.',
    schema: { type: 'object', properties: { id: { type: 'string' }, deleted: { type: 'boolean' } } },
  })
  @ApiNotFoundResponse({ type: HttpErrorDto })
  delete(@CurrentPrincipal() principal: Principal, @Param('suite_id') id: string) {
    return this.suites.delete(principal, id);
  }

  @Post(':suite_id/runs')
  @HttpCode(202)
  @ApiAcceptedResponse({ description: 'One job per test is queued.', type: SuiteRunDto })
  @ApiNotFoundResponse({ type: HttpErrorDto })
  run(@CurrentPrincipal() principal: Principal, @Param('suite_id') id: string): Promise<SuiteRunDto> {
    return this.suites.run(principal, id);
  }

  @Get(':suite_id/runs/:run_id')
  @ApiOkResponse({ description: 'One run, with each test’s result.', type: SuiteRunDto })
  @ApiNotFoundResponse({ type: HttpErrorDto })
  getRun(
    @CurrentPrincipal() principal: Principal,
    @Param('suite_id') id: string,
    @Param('run_id') runId: string,
  ): Promise<SuiteRunDto> {
    return this.suites.getRun(principal, id, runId);
  }

  @Get(':suite_id/runs')
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: SUITE_RUNS_LIMIT_MAX, default: SUITE_RUNS_LIMIT_DEFAULT },
  })
  @ApiOkResponse({
    description: 'The most recent runs first, with each test’s result.',
    type: SuiteRunListDto,
  })
  @ApiNotFoundResponse({ type: HttpErrorDto })
  runs(
    @CurrentPrincipal() principal: Principal,
    @Param('suite_id') id: string,
    @Query(RUNNER_INPUT) query: ListSuiteRunsQueryDto,
  ): Promise<SuiteRunListDto> {
    return this.suites.runs(principal, id, query);
  }
}
