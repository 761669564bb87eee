/**
 * What MFA policies are made of: the authentication types the API description lists, and the bounds on a
 * user's policies that keep their evaluation cheap.
 *
 * @module
 */

/** `v1AuthenticationType`, in the description's order. */
export const AUTHENTICATION_TYPES = [
  "AUTHENTICATION_TYPE_EMAIL_OTP",
  "AUTHENTICATION_TYPE_SMS_OTP",
  "AUTHENTICATION_TYPE_PASSKEY",
  "AUTHENTICATION_TYPE_API_KEY",
  "AUTHENTICATION_TYPE_OAUTH",
  "AUTHENTICATION_TYPE_SESSION",
] as const;

export type AuthenticationType = (typeof AUTHENTICATION_TYPES)[number];

/**
 * Bounds on MFA policies (custodian's own; the hosted service publishes none): every activity a user submits
 * evaluates that user's conditions, so their number is bounded, and so is each policy's list of steps.
 */
export const MFA_LIMITS = {
  policiesPerUser: 20,
  stepsPerPolicy: 10,
  methodsPerStep: 10,
} as const;
