import { exceedsJsonDepth, MAX_JSON_DEPTH } from '@suite/contracts';
import { issue, jsonInvalidIssue, RunnerError } from '@suite/errors';
import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies parsed the way FastAPI reports them: malformed JSON is a 422 `json_invalid` entry
 * with the position, not a framework 400. An empty body reaches validation as "missing".
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  // Only JSON is accepted: every other media type (text/plain included) is a 415.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    // Parameters such as `; charset=utf-8` are allowed, as is any `+json` type.
    /^application\/([\w.+-]+\+)?json\s*(;.*)?$/i,
    { parseAs: 'string' },
    (_request, body: string | Buffer, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        return done(RunnerError.validation([jsonInvalidIssue(error, text)]), undefined);
      }
      if (exceedsJsonDepth(parsed)) {
        const why = `arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels`;
        return done(RunnerError.validation([issue.jsonInvalid(0, why, ['body'])]), undefined);
      }
      done(null, parsed);
    },
  );
}
