import { ApiError } from "../core/errors";
import type { BearerResolver } from "../core/grant";
import { bearerChallenge, bearerGrant } from "./bearer";

/**
 * The OAuth credentials of the route table (core/route.ts AuthKind), resolved before anything else
 * about the request is read. `bearer`: an access token is required, so without one it is 401 with the
 * RFC 9728 §5.1 challenge (RFC 6750 §3.1: no error code for a request without credentials). `agent`:
 * without an Authorization header the agent is anonymous (it may pay or sign in per call, in the call
 * pipeline); a bad token is the 401 with error="invalid_token", never served as if it were absent.
 * The router's BearerResolver (core/grant.ts), given to it by workers/router.ts.
 */
export const resolveBearer: BearerResolver = async (auth, env, request) => {
  const grant = await bearerGrant(request, env);
  if (!grant && auth === "bearer") throw new ApiError("unauthorized", "a bearer access token is required", bearerChallenge(env));
  return grant;
};
