/**
 * The webhook URL rules: https to public destinations only, unless the host explicitly allows insecure
 * receivers (http to loopback, private and link-local addresses).
 */
import { describe, expect, it } from "vitest";
import { CustodyError } from "../../src/index.js";
import { checkWebhookUrl, isSpecialAddress } from "../../src/webhooks/url-policy.js";

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

describe("isSpecialAddress", () => {
  it("tells public unicast addresses from the rest, including IPv4-mapped IPv6", () => {
    expect(isSpecialAddress("93.184.216.34")).toBe(false);
    expect(isSpecialAddress("2606:4700::1111")).toBe(false);
    expect(isSpecialAddress("172.32.0.1")).toBe(false);
    expect(isSpecialAddress("172.31.255.255")).toBe(true);
    expect(isSpecialAddress("::ffff:7f00:1")).toBe(true);
    expect(isSpecialAddress("::ffff:93.184.216.34")).toBe(false);
    expect(isSpecialAddress("224.0.0.1")).toBe(true);
  });
});
