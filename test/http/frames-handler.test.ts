/**
 * `custodian/http`'s frames handlers as a host mounts them: which paths they answer, the headers that keep the
 * frames on their own (the CSP, the embedders allowed), the engine's signer key in the page, and the options
 * they refuse. The frames' behaviour in a browser is test/browser/frames-chromium.test.ts.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFramesFetchHandler, createFramesHandler, FRAME_KINDS } from "../../src/http.js";
import { CustodyEngine, CustodyError } from "../../src/index.js";

let engine: CustodyEngine;
let signerPublicKey: string;
let node: Server;
let nodeUrl: string;

beforeAll(async () => {
  engine = new CustodyEngine();
  await engine.open();
  signerPublicKey = await engine.signerPublicKey();
  const frames = createFramesHandler({ signerPublicKey });
  node = createServer(async (req, res) => {
    if (!(await frames(req, res))) res.writeHead(404).end("host's own 404");
  });
  await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
  nodeUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  node?.close();
  await engine?.close();
});

describe("the frames handlers", () => {
  it("serve each frame's page with the engine's signer key, and its script", async () => {
    expect(FRAME_KINDS).toEqual(["export", "import", "auth"]);
    for (const kind of FRAME_KINDS) {
      const page = await fetch(`${nodeUrl}/${kind}`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const csp = page.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'none'");
      expect(csp).toContain("frame-ancestors *");
      const html = await page.text();
      expect(html).toContain(`<meta name="custodian-signer-public-key" content="${signerPublicKey}">`);
      expect(html).toContain(`<script src="frame-scripts/${kind}.js"></script>`);

      const script = await fetch(`${nodeUrl}/frame-scripts/${kind}.js`);
      expect(script.status).toBe(200);
      expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(script.headers.get("x-content-type-options")).toBe("nosniff");
      // A browser script: bundled, no module loader or Node built-ins left for the browser to resolve.
      const text = await script.text();
      expect(text.length).toBeGreaterThan(10_000);
      expect(text).not.toMatch(/\brequire\(["']node:/);
    }
  }, 60_000);

  it("leave other paths to the host and refuse methods other than GET and HEAD", async () => {
    expect(await (await fetch(`${nodeUrl}/`)).text()).toBe("host's own 404");
    expect(await (await fetch(`${nodeUrl}/export/`)).text()).toBe("host's own 404");
    expect(await (await fetch(`${nodeUrl}/frame-scripts/other.js`)).text()).toBe("host's own 404");
    const posted = await fetch(`${nodeUrl}/import`, { method: "POST", body: "{}" });
    expect(posted.status).toBe(405);
    expect(posted.headers.get("allow")).toBe("GET, HEAD");
    const head = await fetch(`${nodeUrl}/auth`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("as a fetch handler, limit embedding to the origins named", async () => {
    const frames = createFramesFetchHandler({ signerPublicKey, frameAncestors: ["https://app.example"] });
    const page = (await frames(new Request("https://frames.example/export"))) as Response;
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors https://app.example");
    expect(await page.text()).toContain(signerPublicKey);
    expect(await frames(new Request("https://frames.example/elsewhere"))).toBeUndefined();
  });

  it("refuse a signer key or an embedder that is not one, naming the option", () => {
    const refusal = (call: () => unknown) => {
      try {
        call();
      } catch (error) {
        expect(error).toBeInstanceOf(CustodyError);
        return { code: (error as CustodyError).code, field: (error as CustodyError).details.field };
      }
      throw new Error("not refused");
    };
    expect(refusal(() => createFramesHandler({ signerPublicKey: signerPublicKey.slice(2) }))).toEqual({
      code: "INVALID_ARGUMENT",
      field: "signerPublicKey",
    });
    expect(
      refusal(() => createFramesFetchHandler({ signerPublicKey, frameAncestors: ["https://app.example/path"] })),
    ).toEqual({ code: "INVALID_ARGUMENT", field: "frameAncestors[0]" });
    expect(refusal(() => createFramesFetchHandler({ signerPublicKey, frameAncestors: [] }))).toEqual({
      code: "INVALID_ARGUMENT",
      field: "frameAncestors",
    });
  });
});
