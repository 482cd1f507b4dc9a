import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Jwt } from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { ProjectRequest } from '../../projects/host.guards.js';
import { AccessTokens, CLOCK_TOLERANCE_S, type AccessClaims } from '../tokens/access-tokens.js';
import { audienceOf } from '../tokens/refresh-sessions.js';
import { ACCESS_TOKEN_ALG } from '../user-auth.constants.js';

export const PROJECT_ACCESS_STRATEGY = 'project-access';

/**
 * Bearer access tokens through @nestjs/passport and passport-jwt: the key is the request's project
 * own, chosen by the token's `kid` (a kid of another project, or of no ES256 key, finds none), the
 * algorithm is pinned to ES256, and the audience, issuer and typ must be this project's.
 */
@Injectable()
export class ProjectAccessStrategy extends PassportStrategy(Strategy, PROJECT_ACCESS_STRATEGY) {
  constructor(private readonly tokens: AccessTokens) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: [ACCESS_TOKEN_ALG],
      passReqToCallback: true,
      jsonWebTokenOptions: { complete: true, clockTolerance: CLOCK_TOLERANCE_S },
      secretOrKeyProvider: (
        request: ProjectRequest,
        rawJwtToken: string,
        done: (error: Error | null, key?: string) => void,
      ) => {
        const project = request.projectContext;
        if (!project) return done(new Error('no project'));
        tokens
          .keyFor(project.project.id, rawJwtToken)
          .then((key) =>
            key
              ? done(null, key.publicKey.export({ format: 'pem', type: 'spki' }).toString())
              : done(new Error('no key of this project verifies this token')),
          )
          .catch((error: Error) => done(error));
      },
    });
  }

  /** The claims, or false (401) for a token that is not one of this project's access tokens. */
  validate(request: ProjectRequest, verified: Jwt): AccessClaims | false {
    const project = request.projectContext;
    return (project && this.tokens.accept(audienceOf(project), verified)) || false;
  }
}
