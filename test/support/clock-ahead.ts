/**
 * Preloaded (`--import`) into a child `npm start` that must see the wall clock `CLOCK_AHEAD_ENV` ms ahead:
 * `Date.now()` and `new Date()` move, so the functions find every lease and due time they computed from
 * the wiring passed, as they would after the test waited that long. Timers keep real time.
 */
export const CLOCK_AHEAD_ENV = 'PARLEY_TEST_CLOCK_AHEAD_MS';

const ahead = Number(process.env[CLOCK_AHEAD_ENV] ?? 0);
if (ahead > 0) {
  const RealDate = Date;
  const now = () => RealDate.now() + ahead;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget),
    apply: () => new RealDate(now()).toString(),
    get: (target, key, receiver) => (key === 'now' ? now : Reflect.get(target, key, receiver)),
  });
}
