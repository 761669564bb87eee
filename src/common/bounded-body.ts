/**
 * Reading a body that a stranger controls without holding more of it than a limit: the HTTP adapter's request
 * bodies, chain nodes' answers and OAuth 2.0 token endpoints' answers.
 *
 * @module
 */

/**
 * Reads `stream` to its end, or up to `limit` bytes: past them it cancels the stream (closing the connection
 * rather than buffering the rest) and answers null. Errors of the stream (a dropped connection, a timeout's
 * abort) are thrown as they come.
 */
export async function readBoundedBytes(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array | null> {
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * A response's body as UTF-8 text, or null when it is larger than `limit` bytes: announced so by its
 * `content-length` (nothing is read then) or found so while reading.
 */
export async function readBoundedText(response: Response, limit: number): Promise<string | null> {
  const announced = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(announced) && announced > limit) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  const bytes = await readBoundedBytes(response.body, limit);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}
