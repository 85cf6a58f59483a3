import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FormatPlugin } from './plugin.js';

/**
 * Format plugins kept outside this repository, named by FORMAT_PLUGIN_MODULES: ES modules whose
 * default export is a plugin or a list of plugins (the contract of `plugin.ts`). They are loaded
 * at start by the archive (the format index) and by every analysis thread, after the built-in
 * ones of `registry.ts`; a module that cannot be loaded or exports no plugin stops the start.
 */
export async function loadPluginModules(paths: readonly string[]): Promise<FormatPlugin[]> {
  const plugins: FormatPlugin[] = [];
  for (const path of paths) {
    if (!isAbsolute(path)) throw new Error(`format plugin module ${path}: give an absolute path`);
    const loaded: { default?: unknown } = await import(pathToFileURL(path).href);
    const exported = Array.isArray(loaded.default) ? loaded.default : [loaded.default];
    for (const candidate of exported) {
      if (!isPlugin(candidate)) {
        throw new Error(`format plugin module ${path}: its default export must be a format plugin (id, formats, detect, read, regenerate) or a list of them`);
      }
      plugins.push(candidate);
    }
  }
  return plugins;
}

function isPlugin(value: unknown): value is FormatPlugin {
  if (typeof value !== 'object' || value === null) return false;
  const plugin = value as Partial<Record<keyof FormatPlugin, unknown>>;
  return (
    typeof plugin.id === 'string' &&
    Array.isArray(plugin.formats) &&
    typeof plugin.detect === 'function' &&
    typeof plugin.read === 'function' &&
    typeof plugin.regenerate === 'function'
  );
}
