// The plugins every boot loads that have no key under `plugins:` (so no config can turn them off): the
// sessions service, the env file's secrets, and the slash-command registry with its built-in commands.
// Declared like the catalog's entries (boot-role.ts) and loaded by the same loop.
import type { BootEntry } from './boot-role.ts'

export const CORE_PLUGINS: readonly BootEntry[] = [
  {
    key: 'sessions',
    configurable: false,
    load: async () => ({ plugin: (await import('@tack/session')).sessionsPlugin }),
    boot: {
      storeOnly: true,
      // With a session store it waits for the store's `ctx.sessionStore`; --no-session: memory only.
      defaults: (opts) => ({ store: opts.noSession ? 'memory' : 'external' }),
    },
  },
  {
    key: 'env-file',
    configurable: false,
    load: async () => ({ plugin: (await import('./env-file-secrets.ts')).EnvFileSecretsPlugin }),
    boot: { defaults: (opts) => ({ file: opts.paths.envFile }) },
  },
  {
    // The slash-command registry every host shares (TUI, `tack run "/name"`, ACP).
    key: 'commands',
    configurable: false,
    load: async () => ({ plugin: (await import('@tack/commands')).CommandsPlugin }),
  },
  {
    // Waits for the registry (inject); applied during the loop, so before any plugin of the user's.
    key: 'builtin-commands',
    configurable: false,
    load: async () => ({ plugin: (await import('./slash/plugin.ts')).BuiltinCommandsPlugin }),
    boot: {
      defaults: (opts) => ({
        home: opts.paths.home,
        permissionMode: opts.settings.permissionMode ?? 'ask',
        permissionsOff: opts.settings.plugins.permissions === false,
      }),
    },
  },
]
