// The module resolve hook of test/host/electron-main.test.ts (registered by
// electron-stand-in-register.ts): the specifier `electron` answers the stand-in beside this file
// (both bundled as .mjs by the test); everything else resolves as Node resolves it.
type Resolve = (
  specifier: string,
  context: unknown,
) => Promise<{ url: string; shortCircuit?: boolean }>;

export async function resolve(specifier: string, context: unknown, next: Resolve) {
  if (specifier === 'electron')
    return { url: new URL('./electron-stand-in.mjs', import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}
