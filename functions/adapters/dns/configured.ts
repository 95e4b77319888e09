/**
 * A resolver made from the DNS servers an environment variable names (comma-separated
 * `host:port`; the system's when unset), read at each call and made again only when the setting
 * changed (the local stack and tests set it after import).
 */
export function resolverOfSetting<R>(variable: string, make: (options: { readonly servers?: readonly string[] }) => R): () => R {
  let made: { readonly setting: string | undefined; readonly resolver: R } | undefined;
  return () => {
    const setting = process.env[variable];
    if (made === undefined || made.setting !== setting) {
      const servers = setting
        ?.split(',')
        .map((server) => server.trim())
        .filter((server) => server !== '');
      made = { setting, resolver: make(servers === undefined ? {} : { servers }) };
    }
    return made.resolver;
  };
}
