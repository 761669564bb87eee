/**
 * The app page of the frames test: what an app does with `@turnkey/iframe-stamper` against custodian's frames,
 * bundled for the browser and served from an origin apart from both the API and the frames. It records every
 * message a frame sends up, so the test can show what reached the page.
 */
import { TurnkeyClient } from "@turnkey/http";
import { IframeStamper, type KeyFormat } from "@turnkey/iframe-stamper";

type Kind = "export" | "import" | "auth";

const stampers = new Map<Kind, IframeStamper>();
/** Every message the frames sent to this page, as JSON. */
const received: string[] = [];

function stamper(kind: Kind): IframeStamper {
  const found = stampers.get(kind);
  if (found === undefined) throw new Error(`no ${kind} frame open`);
  return found;
}

async function open(kind: Kind, iframeUrl: string): Promise<string> {
  const container = document.getElementById(`${kind}-container`) as HTMLElement;
  const created = new IframeStamper({ iframeUrl, iframeContainer: container, iframeElementId: `${kind}-frame` });
  // The stamper's own end of the channel; a second listener sees what the stamper sees.
  const port = (created as unknown as { messageChannel: MessageChannel }).messageChannel.port1;
  port.addEventListener("message", (event) => received.push(JSON.stringify(event.data)));
  stampers.set(kind, created);
  return created.init();
}

const framesPage = {
  open,
  injectWalletExportBundle: (bundle: string, organizationId: string) =>
    stamper("export").injectWalletExportBundle(bundle, organizationId),
  injectKeyExportBundle: (bundle: string, organizationId: string, keyFormat?: string) =>
    stamper("export").injectKeyExportBundle(bundle, organizationId, keyFormat as KeyFormat | undefined),
  injectImportBundle: (bundle: string, organizationId: string, userId: string) =>
    stamper("import").injectImportBundle(bundle, organizationId, userId),
  extractWalletEncryptedBundle: () => stamper("import").extractWalletEncryptedBundle(),
  extractKeyEncryptedBundle: (keyFormat?: string) =>
    stamper("import").extractKeyEncryptedBundle(keyFormat as KeyFormat | undefined),
  applySettings: (kind: Kind, styles: Record<string, string>) => stamper(kind).applySettings({ styles }),
  injectCredentialBundle: (bundle: string) => stamper("auth").injectCredentialBundle(bundle),
  /** `get_whoami` from this page, stamped by the auth frame. */
  whoami: async (baseUrl: string, organizationId: string) =>
    new TurnkeyClient({ baseUrl }, stamper("auth")).getWhoami({ organizationId }),
  /** What a frame's error looks like to the app. */
  errorOf: async (call: () => Promise<unknown>) => {
    try {
      await call();
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  },
  received: () => [...received],
};

(window as unknown as { framesPage: typeof framesPage }).framesPage = framesPage;
