/**
 * What an official client's refusal carries (`TurnkeyRequestError` of `@turnkey/http` and `@turnkey/sdk-server`):
 * the gRPC code, the message and the stable reason (`turnkeyErrorCode`).
 */

/** The hosted service's explicit denial, as `@turnkey/sdk-types`' TurnkeyRequestError words it. */
export const EXPLICIT_DENIAL = "Turnkey error 7: policy engine denied request explicitly (Details: [])";

/** Awaits `promise`, expecting an official client to refuse it, and answers what the refusal carries. */
export async function officialRefusal(
  promise: Promise<unknown>,
): Promise<{ code: number; message: string; reason: unknown }> {
  const error = (await promise.then(
    () => {
      throw new Error("expected the request to be refused");
    },
    (e: unknown) => e,
  )) as { code: number; message: string; details: { turnkeyErrorCode?: string }[] | null };
  return { code: error.code, message: error.message, reason: error.details?.[0]?.turnkeyErrorCode };
}
