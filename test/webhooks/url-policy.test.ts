/**
 * The webhook URL rules: https to public destinations only, unless the host explicitly allows insecure
 * receivers (http to loopback, private and link-local addresses). An IPv6 address that carries a refused
 * IPv4 address (mapped, compatible, NAT64, 6to4, Teredo, ISATAP) is refused like that address, however
 * it is spelled, in a URL and among the addresses a name resolves to when the connection is dialled.
 */
import { lookup, V4MAPPED } from "node:dns";
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/index.js";
import { nonPublicPart } from "../../src/webhooks/special-addresses.js";
import { publicOnlyLookup } from "../../src/webhooks/transport.js";
import { checkWebhookUrl } from "../../src/webhooks/url-policy.js";

const STRICT = { allowInsecure: false };
const INSECURE = { allowInsecure: true };

function refusal(url: string, rules = STRICT): CustodyError {
  try {
    checkWebhookUrl(url, rules, "parameters.url");
  } catch (error) {
    expect(error).toBeInstanceOf(CustodyError);
    const custody = error as CustodyError;
    expect(custody.code).toBe("INVALID_ARGUMENT");
    expect(custody.details.field).toBe("parameters.url");
    return custody;
  }
  throw new Error(`expected ${url} to be refused`);
}

describe("checkWebhookUrl", () => {
  it("accepts https URLs of public hosts and addresses", () => {
    for (const url of [
      "https://hooks.example.com/turnkey",
      "https://93.184.216.34:8443/x",
      "https://[2606:4700::1111]/",
    ]) {
      expect(checkWebhookUrl(url, STRICT, "parameters.url").href).toBe(new URL(url).href);
    }
  });

  it("refuses http, other schemes and malformed URLs", () => {
    expect(refusal("http://hooks.example.com/").details.reason).toBe("WEBHOOK_URL_INSECURE");
    expect(refusal("ftp://hooks.example.com/").details.reason).toBe("WEBHOOK_URL_INSECURE");
    expect(refusal("hooks.example.com/path").details.reason).toBe("WEBHOOK_URL_INVALID");
    expect(refusal(`https://example.com/${"a".repeat(2100)}`).details.reason).toBe("WEBHOOK_URL_INVALID");
  });

  it("refuses user info, even when insecure receivers are allowed", () => {
    expect(refusal("https://user:secret@hooks.example.com/").details.reason).toBe("WEBHOOK_URL_USERINFO");
    expect(refusal("http://user@127.0.0.1:8080/", INSECURE).details.reason).toBe("WEBHOOK_URL_USERINFO");
  });

  it("refuses loopback, private, link-local and metadata destinations", () => {
    for (const url of [
      "https://localhost/",
      "https://api.localhost/",
      "https://127.0.0.1/",
      "https://10.1.2.3/",
      "https://172.16.0.1/",
      "https://192.168.1.1/",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/",
      "https://0.0.0.0/",
      "https://[::1]/",
      "https://[fe80::1]/",
      "https://[fd00::1]/",
      "https://[::ffff:10.0.0.1]/",
      "https://2130706433/", // 127.0.0.1 spelled as one number
    ]) {
      expect(refusal(url).details.reason, url).toBe("WEBHOOK_URL_NOT_PUBLIC");
    }
  });

  it("allows http to loopback receivers and private destinations only when insecure receivers are allowed", () => {
    for (const url of ["http://127.0.0.1:8080/hooks", "http://localhost:3000/", "http://[::1]:9000/"]) {
      expect(() => checkWebhookUrl(url, INSECURE, "parameters.url")).not.toThrow();
    }
    expect(() => checkWebhookUrl("https://10.0.0.5/", INSECURE, "parameters.url")).not.toThrow();
    // http stays loopback-only: a LAN or public receiver still needs https.
    expect(refusal("http://10.0.0.5/", INSECURE).details.reason).toBe("WEBHOOK_URL_INSECURE");
    expect(refusal("http://hooks.example.com/", INSECURE).details.reason).toBe("WEBHOOK_URL_INSECURE");
  });
});

/** IPv6 spellings of refused IPv4 addresses, each with the address it carries. */
const EMBEDDED_REFUSED: [string, string][] = [
  ["[::127.0.0.1]", "127.0.0.1"], // IPv4-compatible
  ["[64:ff9b::127.0.0.1]", "127.0.0.1"], // NAT64, well-known prefix
  ["[2002:7f00:1::1]", "127.0.0.1"], // 6to4
  ["[::ffff:127.0.0.1]", "127.0.0.1"], // IPv4-mapped
  ["[::FFFF:7F00:1]", "127.0.0.1"], // uppercase hex
  ["[0000:0000:0000:0000:0000:ffff:7f00:0001]", "127.0.0.1"], // uncompressed, zero-padded
  ["[0:0:0:0:0:FfFf:169.254.169.254]", "169.254.169.254"], // mixed case, dotted tail
  ["[::ffff:0:10.0.0.1]", "10.0.0.1"], // IPv4-translated (SIIT)
  ["[64:ff9b::a9fe:a9fe]", "169.254.169.254"], // NAT64 to cloud metadata
  ["[64:FF9B:0:0:0:0:192.168.1.1]", "192.168.1.1"],
  ["[2002:c0a8:0101::1]", "192.168.1.1"],
  ["[2002:a00:1:1234:5678::9]", "10.0.0.1"],
  // Teredo: a public server (65.54.227.120) and the client 127.0.0.1 as the inverted last 32 bits.
  ["[2001:0:4136:e378:8000:63bf:80ff:fffe]", "127.0.0.1"],
  ["[2001:0:a00:1::1]", "10.0.0.1"], // Teredo with a private server
  ["[2001:4860:1::5efe:7f00:1]", "127.0.0.1"], // ISATAP
  ["[2001:4860:1::200:5efe:c0a8:1]", "192.168.0.1"], // ISATAP, globally unique interface id
];

describe("IPv6 addresses that carry an IPv4 address", () => {
  it("refuses every IPv6 spelling of a refused IPv4 address, naming the address it carries", () => {
    for (const [host, carried] of EMBEDDED_REFUSED) {
      const error = refusal(`https://${host}/hooks`);
      expect(error.details.reason, host).toBe("WEBHOOK_URL_NOT_PUBLIC");
      expect(error.message, host).toContain(carried);
    }
  });

  it("accepts IPv6 spellings of public IPv4 addresses", () => {
    for (const host of [
      "[::ffff:8.8.8.8]",
      "[64:ff9b::8.8.8.8]",
      "[2002:808:808::1]",
      "[2001:0:4136:e378:8000:63bf:f7f7:f7f7]", // Teredo client 8.8.8.8
      "[2001:4860:1::5efe:808:808]",
    ]) {
      expect(() => checkWebhookUrl(`https://${host}/`, STRICT, "parameters.url"), host).not.toThrow();
    }
  });

  it("refuses other special IPv6 ranges", () => {
    for (const host of ["[64:ff9b:1::808:808]", "[3fff::1]", "[fec0::1]", "[2001:db8::1]", "[100::1]"]) {
      expect(refusal(`https://${host}/`).details.reason, host).toBe("WEBHOOK_URL_NOT_PUBLIC");
    }
  });

  it("lets http reach only the loopback forms that stay on this machine when insecure receivers are allowed", () => {
    expect(() => checkWebhookUrl("http://[::ffff:127.0.0.1]:8080/", INSECURE, "parameters.url")).not.toThrow();
    for (const host of ["[64:ff9b::127.0.0.1]", "[::127.0.0.1]", "[2002:7f00:1::1]"]) {
      expect(refusal(`http://${host}:8080/`, INSECURE).details.reason, host).toBe("WEBHOOK_URL_INSECURE");
    }
  });
});

describe("nonPublicPart", () => {
  it("tells public unicast addresses from the rest, in the spellings name resolution gives", () => {
    for (const address of ["93.184.216.34", "2606:4700::1111", "172.32.0.1", "::ffff:93.184.216.34"]) {
      expect(nonPublicPart(address), address).toBeUndefined();
    }
    expect(nonPublicPart("172.31.255.255")).toBe("172.31.255.255");
    expect(nonPublicPart("224.0.0.1")).toBe("224.0.0.1");
    expect(nonPublicPart("::1")).toBe("::1");
    expect(nonPublicPart("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(nonPublicPart("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(nonPublicPart("::127.0.0.1")).toBe("127.0.0.1");
    expect(nonPublicPart("64:ff9b::7f00:1")).toBe("127.0.0.1");
    expect(nonPublicPart("2002:a9fe:a9fe::")).toBe("169.254.169.254");
  });

  it("refuses what is not an address it can read as itself", () => {
    for (const text of ["fe80::1%eth0", "localhost", "", "1.2.3", "::ffff:999.0.0.1"]) {
      expect(nonPublicPart(text), text).toBe(text);
    }
  });
});

describe("publicOnlyLookup", () => {
  it("refuses a name whose addresses, as the resolver spells them, carry a loopback address", async () => {
    // Asked for IPv6 with mapped results, the resolver answers localhost with ::ffff:127.0.0.1.
    const direct = await new Promise<string>((resolve, reject) =>
      lookup("localhost", { family: 6, hints: V4MAPPED }, (error, address) =>
        error ? reject(error) : resolve(address),
      ),
    );
    expect(nonPublicPart(direct)).toBeDefined();
    const error = await new Promise<Error | null>((resolve) =>
      publicOnlyLookup("localhost", { family: 6, hints: V4MAPPED }, (failure) => resolve(failure)),
    );
    expect(error?.message).toMatch(/^localhost resolves to .*, which is not a public destination$/);
  });
});
