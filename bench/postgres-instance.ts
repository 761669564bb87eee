/**
 * One custodian instance for `postgres.bench.ts`, run as a process of its own: an engine on a PostgresStore
 * (its own pool) on the schema the parent names, submitting private-key tags to the organizations the parent
 * created, as many at once as it is told, for as long as it is told, and answering how many committed.
 *
 * Messages in: `{ organizations, keyEncryptionKey }` once (answered `{ ready: true }`), then `{ ms, inFlight }`
 * (answered `{ activities }`), then `{ stop: true }`. Argument: the connection string, then the schema.
 */
import { CustodyEngine } from "../dist/index.js";
import { PostgresStore } from "../dist/postgres.js";

interface Organization {
  organizationId: string;
  userId: string;
}

const [url, schema] = process.argv.slice(2) as [string, string];
const store = await PostgresStore.open(url, { schema });
let engine: CustodyEngine | undefined;
let organizations: Organization[] = [];
let next = 0;

/** Submits tags, `inFlight` at a time spread over the organizations, for `ms`; returns how many committed. */
async function submit(ms: number, inFlight: number): Promise<number> {
  const running = engine as CustodyEngine;
  const views = organizations.map(({ userId }) => running.as({ userId }));
  const deadline = performance.now() + ms;
  let committed = 0;
  const lane = async (lane: number) => {
    const at = lane % organizations.length;
    const { organizationId } = organizations[at] as Organization;
    while (performance.now() < deadline) {
      await (views[at] as (typeof views)[number]).createPrivateKeyTag({
        organizationId,
        parameters: { privateKeyTagName: `tag-${process.pid}-${next++}`, privateKeyIds: [] },
      });
      committed++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, (_, n) => lane(n)));
  return committed;
}

process.on("message", (message: Record<string, unknown>) => {
  void (async () => {
    if (message.organizations) {
      organizations = message.organizations as Organization[];
      engine = new CustodyEngine({ store, keyEncryptionKey: new Uint8Array(message.keyEncryptionKey as number[]) });
      await engine.open();
      process.send?.({ ready: true });
    } else if (message.stop) {
      await engine?.close();
      await store.close();
      process.disconnect();
    } else {
      process.send?.({ activities: await submit(message.ms as number, message.inFlight as number) });
    }
  })();
});
