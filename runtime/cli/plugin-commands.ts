import { loadStartupConfig } from '../config/load.ts';
import { hostErrors } from '../core/host-errors.ts';
import { builtinPluginIds, importPlugin, type PluginEntry } from '../plugins/loader.ts';
import type { PluginCommand } from '../core/types.ts';

/** The host's own commands, which no plugin may take */
export const HOST_COMMANDS = ['serve', 'config', 'help', 'version'];

/** A command a plugin contributes, with the id of that plugin */
export interface FoundCommand {
  name: string;
  pluginId: string;
  command: PluginCommand;
  /** The plugin's entry: from the startup document's `plugins[]` when listed there, with its config */
  entry: PluginEntry;
}

/** The plugin commands `capstan` offers, and the folder their `io.baseDir` names */
export interface PluginCommands {
  commands: Map<string, FoundCommand>;
  baseDir: string;
  /** The startup document's `plugins[]`, which a command's services are found among; empty without `--config` */
  plugins: PluginEntry[];
}

/**
 * The commands of the built-in plugins and of the `plugins[]` of the startup document `config`, if given. A command
 * named like a host command, or like another plugin's, is refused rather than shadowed, so that a name always means
 * one thing.
 */
export async function pluginCommands(config: string | undefined): Promise<PluginCommands> {
  const loaded = config === undefined ? undefined : await loadStartupConfig(config, { loadPlugin: importPlugin });
  const baseDir = loaded?.baseDir ?? process.cwd();
  const plugins: PluginEntry[] = loaded?.document.plugins ?? [];
  const builtins = await builtinPluginIds();
  // A built-in plugin the document lists keeps its config there, which its command's services are found by
  const entries: PluginEntry[] = builtins.map(
    (id) => plugins.find((entry) => entry.id === id && entry.path === undefined) ?? { id },
  );
  // A plugins[] entry without a path is a built-in plugin, already listed
  for (const entry of plugins) if (entry.path !== undefined) entries.push(entry);
  const commands = new Map<string, FoundCommand>();
  for (const entry of entries) {
    const definition = await importPlugin(entry, baseDir);
    for (const [name, command] of Object.entries(definition.commands ?? {})) {
      if (HOST_COMMANDS.includes(name)) throw hostErrors.PLUGIN_ERR_COMMAND_HOST(name, entry.id);
      const taken = commands.get(name);
      // Two instances of one plugin (or a built-in one listed by path) bring the same command once
      if (taken?.command === command) continue;
      if (taken) throw hostErrors.PLUGIN_ERR_COMMAND_TAKEN(name, entry.id, taken.pluginId);
      commands.set(name, { name, pluginId: entry.id, command, entry });
    }
  }
  return { commands, baseDir, plugins };
}
