/**
 * The frames' side of `@turnkey/iframe-stamper`'s message protocol. The parent page posts
 * `TURNKEY_INIT_MESSAGE_CHANNEL` with a `MessagePort`; from then on every request arrives on that port as
 * `{type, requestId, ...}` and every answer leaves on it as `{type, value, requestId}`, an `ERROR` carrying the
 * error's text. Only the first channel counts, and only the window that embeds the frame may open it, so another
 * window cannot take over a frame it can merely post to.
 *
 * @module
 */

/** A request from the parent page, as the stamper posts it. */
export type FrameRequest = Readonly<Record<string, unknown>> & { type: string };

/** The answer to one request: its message type and value. */
export interface FrameReply {
  type: string;
  value: unknown;
}

/** Answers one request type; a throw becomes an `ERROR` answer. */
export type FrameHandler = (request: FrameRequest) => Promise<FrameReply> | FrameReply;

/** What a frame needs from the channel. */
export interface FrameDefinition {
  /**
   * Runs once the channel is open; its value is sent as `PUBLIC_KEY_READY`. `keyTtlMs` is the stamper's
   * `dangerouslyOverrideIframeKeyTtl`, when it sent a positive number.
   */
  onOpen(keyTtlMs: number | undefined): Promise<string> | string;
  /** Handlers by request type; requests of other types are ignored, as the hosted frames ignore them. */
  handlers: Readonly<Record<string, FrameHandler>>;
}

const INIT_MESSAGE = "TURNKEY_INIT_MESSAGE_CHANNEL";

/** The text of a thrown value, as the hosted frames send it (`Error: …`). */
function errorText(error: unknown): string {
  return error instanceof Error ? `Error: ${error.message}` : String(error);
}

async function answer(port: MessagePort, definition: FrameDefinition, data: unknown): Promise<void> {
  if (typeof data !== "object" || data === null) return;
  const request = data as FrameRequest;
  const handler = typeof request.type === "string" ? definition.handlers[request.type] : undefined;
  if (handler === undefined) return;
  const requestId = typeof request.requestId === "string" ? request.requestId : undefined;
  let reply: FrameReply;
  try {
    reply = await handler(request);
  } catch (error) {
    reply = { type: "ERROR", value: errorText(error) };
  }
  port.postMessage(requestId === undefined ? reply : { ...reply, requestId });
}

/** Waits for the parent's channel, then serves `definition` on it. */
export function serveFrame(definition: FrameDefinition): void {
  let opened = false;
  const controller = new AbortController();
  window.addEventListener(
    "message",
    (event: MessageEvent) => {
      const data = event.data as { type?: unknown; dangerouslyOverrideIframeKeyTtl?: unknown } | null;
      const port = event.ports[0];
      if (data?.type !== INIT_MESSAGE || port === undefined || event.source !== window.parent || opened) return;
      opened = true;
      controller.abort();
      const ttl = data.dangerouslyOverrideIframeKeyTtl;
      const keyTtlMs = typeof ttl === "number" && Number.isFinite(ttl) && ttl > 0 ? ttl : undefined;
      port.onmessage = (message: MessageEvent) => void answer(port, definition, message.data);
      void Promise.resolve()
        .then(() => definition.onOpen(keyTtlMs))
        .then(
          (publicKey) => port.postMessage({ type: "PUBLIC_KEY_READY", value: publicKey }),
          (error: unknown) => port.postMessage({ type: "ERROR", value: errorText(error) }),
        );
    },
    { signal: controller.signal },
  );
}
