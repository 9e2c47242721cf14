/** A module's setting that the local runtime, tests and benches may swap in; `use` returns the undo. */
export const swappable = <T>() => {
  let current: T | undefined;
  return {
    get: (): T | undefined => current,
    use: (next: T | undefined): (() => void) => {
      const previous = current;
      current = next;
      return () => {
        current = previous;
      };
    },
  };
};
