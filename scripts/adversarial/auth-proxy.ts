/**
 * The auth proxy as strangers use it: a sign-up that copies a victim's email beside the attacker's own phone
 * token, look-ups by user name and by a forged token, the outbox without the console token, calls from a
 * foreign origin, and floods of sign-ups and of codes to one address. The floods come from loopback addresses
 * of their own (127.0.0.0/8 is all this machine's), so each meets the limit it is about rather than the budget
 * the earlier attacks spent from 127.0.0.1.
 *
 * @module
 */
import { request } from "node:http";
import { generateP256KeyPair } from "@turnkey/crypto";
import { bodies, check, figure, output, raw, type Target } from "./harness.js";

const VICTIM = "victim@adversarial.test";
const FLOOD = 300;

/** The console token the server printed at start-up. */
function consoleToken(): string {
  const matches = [...output.text.matchAll(/\?token=(\S+)/g)];
  return matches.at(-1)?.[1] ?? "";
}

async function outboxCode(baseUrl: string, contact: string): Promise<string | undefined> {
  const response = await fetch(`${baseUrl}/dev/outbox`, { headers: { authorization: `Bearer ${consoleToken()}` } });
  const { messages } = (await response.json()) as { messages: { to: string; otpCode?: string }[] };
  return messages.filter((message) => message.to === contact).at(-1)?.otpCode;
}

/** A verification token for `contact` (V1 verification, no bound key), the code read from the outbox. */
async function verify(baseUrl: string, otpType: string, contact: string): Promise<string> {
  const init = await raw(`${baseUrl}/v1/otp_init`, JSON.stringify({ otpType, contact }));
  const { otpId } = JSON.parse(init.text) as { otpId: string };
  const otpCode = await outboxCode(baseUrl, contact);
  const verified = await raw(`${baseUrl}/v1/otp_verify`, JSON.stringify({ otpId, otpCode }));
  return (JSON.parse(verified.text) as { verificationToken: string }).verificationToken;
}

const credentials = () => ({
  apiKeys: [{ apiKeyName: "k", publicKey: generateP256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }],
  authenticators: [],
  oauthProviders: [],
});

async function preHijack(baseUrl: string) {
  const phone = "+15555550142";
  const phoneToken = await verify(baseUrl, "OTP_TYPE_SMS", phone);
  const squat = await raw(
    `${baseUrl}/v1/signup`,
    JSON.stringify({ userPhoneNumber: phone, userEmail: VICTIM, verificationToken: phoneToken, ...credentials() }),
  );
  check(
    "a sign-up storing a victim's email beside the attacker's phone token is refused",
    squat.status === 400,
    squat.text,
  );
  const emailToken = await verify(baseUrl, "OTP_TYPE_EMAIL", VICTIM);
  const lookup = await raw(
    `${baseUrl}/v1/account`,
    JSON.stringify({ filterType: "EMAIL", filterValue: VICTIM, verificationToken: emailToken }),
  );
  check(
    "the victim's look-up finds no account they did not make",
    lookup.status === 200 && lookup.text === "{}",
    lookup.text,
  );
}

async function enumeration(baseUrl: string) {
  for (const filterType of ["USERNAME", "NAME"]) {
    const response = await raw(`${baseUrl}/v1/account`, JSON.stringify({ filterType, filterValue: VICTIM }));
    check(
      `account by ${filterType} answers no organization`,
      response.status === 400 && !/organizationId/.test(response.text),
      response.text,
    );
  }
  const forged = `eyJhbGciOiJFUzI1NiJ9.${Buffer.from(JSON.stringify({ verification_type: "OTP_TYPE_EMAIL", contact: VICTIM })).toString("base64url")}.c2ln`;
  const login = await raw(`${baseUrl}/v1/otp_login`, JSON.stringify({ verificationToken: forged, publicKey: "02" }));
  check("a forged token's log-in is refused before any look-up", login.status === 401, login.text);
}

async function outboxAndOrigins(baseUrl: string) {
  const outbox = await fetch(`${baseUrl}/dev/outbox`);
  const text = await outbox.text();
  check(
    "/dev/outbox without the console token shows no code",
    outbox.status === 401 && !text.includes("otpCode"),
    text,
  );
  const foreign = await raw(`${baseUrl}/v1/wallet_kit_config`, "{}", { origin: "https://evil.example" });
  check(
    "a foreign origin is refused without CORS headers",
    foreign.status === 403 && foreign.headers.get("access-control-allow-origin") === null,
    `${foreign.status} ${foreign.headers.get("access-control-allow-origin")}`,
  );
}

/** A POST from the loopback address `localAddress`; the response body is kept for the secret scan. */
function postFrom(localAddress: string, url: string, body: string): Promise<{ status: number; retryAfter: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", localAddress, headers: { "content-type": "application/json" }, timeout: 30_000 },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => {
          bodies.push(text);
          resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers["retry-after"]) });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end(body);
  });
}

/** Sends `FLOOD` requests as fast as one client can (16 at a time); returns those accepted and the seconds taken. */
async function flood(send: (i: number) => Promise<{ status: number; retryAfter: number }>) {
  let accepted = 0;
  let limited = 0;
  let retryAfterSeen = true;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < FLOOD) {
        const response = await send(next++);
        if (response.status === 200) accepted++;
        if (response.status === 429) {
          limited++;
          retryAfterSeen &&= response.retryAfter > 0;
        }
      }
    }),
  );
  return { accepted, limited, retryAfterSeen, seconds: (performance.now() - started) / 1000 };
}

async function floods(baseUrl: string) {
  const signups = await flood(() => postFrom("127.0.0.2", `${baseUrl}/v1/signup_v2`, JSON.stringify(credentials())));
  figure(`sign-ups accepted of ${FLOOD} from one address`, signups.accepted, "");
  figure("sign-ups accepted per second", signups.accepted / signups.seconds, "/s");
  check(
    "sign-ups from one address stop at the limit with 429 and retry-after",
    signups.accepted === 20 && signups.limited + signups.accepted === FLOOD && signups.retryAfterSeen,
    JSON.stringify(signups),
  );
  const target = "flooded@adversarial.test";
  // Each request from an address of its own: only the per-contact limit stands in the way.
  const codes = await flood((i) =>
    postFrom(
      `127.0.${3 + Math.floor(i / 250)}.${1 + (i % 250)}`,
      `${baseUrl}/v1/otp_init`,
      JSON.stringify({ otpType: "OTP_TYPE_EMAIL", contact: target }),
    ),
  );
  figure(`codes sent of ${FLOOD} to one address from ${FLOOD} client addresses`, codes.accepted, "");
  figure("codes to one address accepted per second", codes.accepted / codes.seconds, "/s");
  check(
    "codes to one address stop at the limit with 429 and retry-after",
    codes.accepted <= 5 && codes.retryAfterSeen,
    JSON.stringify(codes),
  );
}

export async function authProxy({ server }: Target) {
  await preHijack(server.baseUrl);
  await enumeration(server.baseUrl);
  await outboxAndOrigins(server.baseUrl);
  await floods(server.baseUrl);
}
