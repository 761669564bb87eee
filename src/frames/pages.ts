/**
 * The frames' HTML: a bare document with the one element each frame writes to or reads from (the hosted
 * frames' ids, `#key-div` and `#plaintext`), the bundle signer's public key in a `<meta>` for the frames that
 * check signed bundles, and the frame's script.
 *
 * @module
 */
import type { FrameKind } from "./kinds.js";

const STYLE = `body{margin:0;padding:8px;font-family:system-ui,sans-serif;color:#555b64}
#key-div{font-size:.875rem;line-height:1.25rem;overflow-wrap:break-word;white-space:pre-wrap}
#plaintext{box-sizing:border-box;width:100%;min-height:6rem;font:inherit;resize:vertical}`;

const BODIES: Readonly<Record<FrameKind, string>> = {
  export: `<div id="key-div" hidden></div>`,
  import: `<label for="plaintext">Recovery phrase or private key</label>
<textarea id="plaintext" autocomplete="off" autocapitalize="off" spellcheck="false"></textarea>`,
  auth: "",
};

const TITLES: Readonly<Record<FrameKind, string>> = {
  export: "Export",
  import: "Import",
  auth: "Auth",
};

/**
 * The page of `kind`. `signerPublicKey` must already be checked as hex (it is written into an attribute);
 * `scriptPath` is relative to the page, so a host may serve the frames under any prefix.
 */
export function framePage(kind: FrameKind, signerPublicKey: string, scriptPath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="custodian-signer-public-key" content="${signerPublicKey}">
<title>${TITLES[kind]}</title>
<style>${STYLE}</style>
</head>
<body>
${BODIES[kind]}
<script src="${scriptPath}"></script>
</body>
</html>
`;
}
