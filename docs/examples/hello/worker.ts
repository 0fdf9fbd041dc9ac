/** The worker of the `hello` example plugin (docs/plugin-api.md): runs one task in the `classify` script thread pool */
export default async function greet(
  payload: { name: string },
  init: { config: { greeting: string } },
): Promise<string> {
  return `${init.config.greeting} ${payload.name}`;
}
