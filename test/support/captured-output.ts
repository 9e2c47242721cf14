/**
 * Copies everything this process writes to stdout and stderr into `into`, still writing it through; the
 * returned function puts the streams back.
 */
export const captureOutput = (into: string[]): (() => void) => {
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const tee =
    (write: typeof out): typeof out =>
    (chunk: string | Uint8Array, ...rest: any[]) => {
      into.push(String(chunk));
      return write(chunk, ...rest);
    };
  process.stdout.write = tee(out);
  process.stderr.write = tee(err);
  return () => {
    process.stdout.write = out;
    process.stderr.write = err;
  };
};
