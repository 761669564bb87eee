import { describe, expect, it } from "vitest";
import { IdGenerator } from "../../src/model/ids.js";

/** RFC 9562 UUIDv7: 48-bit Unix milliseconds, version 7, the 10 variant, lowercase hex in 8-4-4-4-12 groups. */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function millisecondsOf(id: string): number {
  return Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16);
}

/** A clock the test moves, and a random source giving the bytes it is told to (all 0xff unless set). */
function generator(startMs: number, random = () => new Uint8Array(16).fill(0xff)) {
  const clock = { now: startMs };
  return { clock, ids: new IdGenerator(() => clock.now, random) };
}

describe("IdGenerator", () => {
  it("makes UUIDv7 strings carrying the clock's milliseconds, whatever the random bytes", () => {
    for (const fill of [0x00, 0x5a, 0xff]) {
      const { ids } = generator(1_760_000_000_123, () => new Uint8Array(16).fill(fill));
      const id = ids.next();
      expect(id).toMatch(UUID_V7);
      expect(millisecondsOf(id)).toBe(1_760_000_000_123);
    }
    const { ids } = generator(0x0123_4567_89ab);
    expect(ids.next()).toBe("01234567-89ab-7000-bfff-ffffffffffff");
  });

  it("keeps ids strictly increasing within a millisecond, when the clock stands still or steps back", () => {
    const { clock, ids } = generator(1_760_000_000_000);
    const made = [ids.next(), ids.next(), ids.next()];
    clock.now -= 5_000;
    made.push(ids.next(), ids.next());
    clock.now += 10_000;
    made.push(ids.next());
    for (const id of made) expect(id).toMatch(UUID_V7);
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
    expect(millisecondsOf(made[4] as string)).toBe(1_760_000_000_000);
    expect(millisecondsOf(made[5] as string)).toBe(1_760_000_005_000);
  });

  it("borrows the next millisecond when 4,096 ids were made in one", () => {
    const { ids } = generator(1_760_000_000_000);
    const made = Array.from({ length: 4097 }, () => ids.next());
    expect(millisecondsOf(made[4095] as string)).toBe(1_760_000_000_000);
    expect(made[4095]?.slice(14, 18)).toBe("7fff");
    expect(millisecondsOf(made[4096] as string)).toBe(1_760_000_000_001);
    expect([...made].sort()).toEqual(made);
  });

  it("gives every id its own string, not a view of a buffer it writes again", () => {
    let n = 0;
    const { ids } = generator(1_760_000_000_000, () => new Uint8Array(16).fill(n++));
    const first = ids.next();
    const copy = `${first}`;
    ids.next();
    expect(first).toBe(copy);
  });
});
