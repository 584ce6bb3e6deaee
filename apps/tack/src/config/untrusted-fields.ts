// Every `plugins.<plugin>.<field>` of every catalog plugin, classified for an untrusted project config
// (docs/decisions/0013-workspace-trust.md, docs/security.md). Fields, never whole plugins: a wildcard let
// `fs.ripgrep` (a program to run, unsandboxed) through when `fs` gained it. A field missing here is held
// back, and `apps/tack/test/untrusted-fields.test.ts` fails until a new field is classified.

/** Why a field is held back from an untrusted project: the classes of docs/security.md. */
export const HELD = {
  runs: 'names a program or code for tack to run or load',
  path: 'a path that widens what tack reads, writes or removes',
  network: 'a network target, or lets requests reach more of the network',
  env: 'environment names or values (which secrets go where)',
  gate: 'turns a safety gate off or widens it',
  cost: 'lifts a bound the user set on what a run costs them',
  kept: 'decides what tack keeps on disk or how the store is written',
  notOffered: 'a limit not reviewed for projects; held back until it is',
} as const

export type HeldReason = (typeof HELD)[keyof typeof HELD]

/**
 * `'harmless'`: kept from an untrusted project. A reason: always dropped. `'narrowing'`: kept only when its
 * value narrows what the user's own config allows (decided by the filter in untrusted.ts).
 */
export type FieldClass = 'harmless' | 'narrowing' | HeldReason

export const UNTRUSTED_PLUGIN_FIELDS: Readonly<Record<string, FieldClass>> = {
  'agent.maxStepsPerTurn': 'narrowing', // only lower: a higher one lifts the turn's bound
  'agent.maxParallelTools': 'harmless',
  'agent.maxIdenticalCalls': 'narrowing', // only lower and positive: 0 turns the loop detector off
  'agent.maxTurnTokens': HELD.cost,
  'agent.model': 'narrowing', // any model but `scripted/…`, which plays a workspace file as the model

  'tools.mode': 'harmless',
  'tools.dispatchSummaryMaxChars': HELD.notOffered,
  'tools.abortGraceMs': 'harmless',

  'codeRuntime.computeMs': HELD.notOffered,
  'codeRuntime.maxWallMs': HELD.notOffered,
  'codeRuntime.memoryBytes': HELD.notOffered,
  'codeRuntime.maxLogBytes': HELD.notOffered,

  'llm.retry': 'harmless',
  'llm.endpoints': HELD.network, // also apiKeyEnv and headers: which key is sent where
  'llm.baseUrl': HELD.network,
  'llm.idleTimeoutMs': 'harmless',
  'llm.scripted': HELD.runs, // a workspace file would play the model

  'store.dataDir': HELD.path,
  'store.path': HELD.path,
  'store.journalMode': HELD.kept,
  'store.busyTimeoutMs': HELD.kept,
  'store.leaseTimeoutMs': HELD.kept,
  'store.synchronous': HELD.kept,

  'fs.readLimit': 'harmless',
  'fs.readMaxLineLength': 'harmless',
  'fs.readMaxBytes': 'harmless',
  'fs.readStreamMinSize': 'harmless',
  'fs.grepMaxLineLength': 'harmless',
  'fs.diffMaxChars': 'harmless',
  'fs.diffTimeoutMs': 'harmless',
  'fs.searchTimeoutMs': 'harmless', // a cap on the model's own pattern, run in a worker either way
  'fs.globMaxResults': 'harmless',
  'fs.ripgrep': HELD.runs,
  'fs.grepMaxMatches': 'harmless',

  'bash.timeoutMs': 'harmless',
  'bash.maxTimeoutMs': 'harmless',
  'bash.maxOutputBytes': 'harmless',
  'bash.graceMs': 'harmless',
  'bash.envAllow': HELD.env,
  'bash.scratchRoot': HELD.path,
  'bash.scratchMaxAgeHours': HELD.kept,
  'bash.envDeny': HELD.env, // a project's list would replace the user's
  'bash.sandbox': HELD.gate,
  'bash.sandboxNetwork': HELD.network,
  'bash.sandboxWritable': HELD.path,
  'bash.sandboxDenyRead': HELD.path, // replaces the built-in list of credentials
  'bash.sandboxExtraDenyRead': HELD.path, // a project's list would replace the user's
  'bash.tackHome': HELD.path,
  'bash.env': HELD.env,

  'web.timeoutMs': HELD.notOffered,
  'web.maxBytes': HELD.notOffered,
  'web.maxResultChars': HELD.notOffered,
  'web.maxRedirects': HELD.notOffered,
  'web.allowLoopback': HELD.network,
  'web.allowPrivateNetworks': HELD.network,
  'web.allowLinkLocal': HELD.network,
  'web.userAgent': HELD.notOffered,
  'web.searchProvider': HELD.network,
  'web.searchApiKeyEnv': HELD.env,
  'web.searchBaseUrl': HELD.network,
  'web.searchMaxResults': HELD.notOffered,
  'web.env': HELD.env,

  'permissions.mode': 'narrowing',
  'permissions.allow': HELD.gate,
  'permissions.deny': 'harmless',

  'subagent.maxDepth': 'harmless',

  // Turning project instructions off or reading less of them only narrows what the model is told.
  'instructions.enabled': 'harmless',
  'instructions.maxBytes': 'harmless',
  'instructions.home': HELD.path,

  // How much history is kept and when it is summarised changes no access.
  'compaction.auto': 'harmless',
  'compaction.contextWindow': 'harmless',
  'compaction.thresholdRatio': 'harmless',
  'compaction.retainTokens': 'harmless',
  'compaction.charsPerToken': 'harmless',
  'compaction.summarizationModel': HELD.network, // where the conversation is sent
  'compaction.maxTokens': 'harmless',
  'compaction.compactionRetries': 'harmless',

  'hooksClaude.sources': HELD.runs,
  'hooksClaude.discover': HELD.runs,
  'hooksClaude.projectDir': HELD.path,
  'hooksClaude.stderrSummaryMaxChars': 'harmless',
  'hooksClaude.maxConsecutiveStopBlocks': 'harmless',
  'hooksClaude.awaitSessionStart': 'harmless',
  'hooksClaude.transcriptDir': HELD.path,
  'hooksClaude.home': HELD.path,
  'hooksClaude.dataDir': HELD.path,
  'hooksClaude.tackHome': HELD.gate, // the trust store (the CLI pins it to $TACK_HOME anyway)
  'hooksClaude.assumeTrusted': HELD.gate,

  'hooksCodex.sources': HELD.runs,
  'hooksCodex.discover': HELD.runs,
  'hooksCodex.codexHome': HELD.path,
  'hooksCodex.projectDir': HELD.path,
  'hooksCodex.dataDir': HELD.path,
  'hooksCodex.tackHome': HELD.gate, // the trust store (the CLI pins it to $TACK_HOME anyway)
  'hooksCodex.transcriptDir': HELD.path,
  'hooksCodex.assumeTrusted': HELD.gate,
  'hooksCodex.trust': HELD.gate,
  'hooksCodex.stderrSummaryMaxChars': 'harmless',
  'hooksCodex.maxConsecutiveStopBlocks': 'harmless',
  'hooksCodex.awaitSessionStart': 'harmless',

  'acp.clientTerminal': HELD.gate, // bash would run outside tack's sandbox
  'acp.terminalTimeoutMs': HELD.notOffered,
  'acp.terminalOutputBytes': HELD.notOffered,

  'tui.historyEntries': HELD.kept,
  'tui.diffMaxLines': 'harmless',

  'dice.base': HELD.path,
  'dice.enabled': 'harmless',

  'mods.mods': HELD.runs,
  'mods.hookBudgetMs': HELD.notOffered,
  'mods.catchBudgetMs': HELD.notOffered,
  'mods.promptEditBudgetMs': HELD.notOffered,
  'mods.sessionEndBudgetMs': HELD.notOffered,
  'mods.dataDir': HELD.path,
}

/** How an untrusted project's `plugins.<plugin>.<field>` is treated; unclassified fields are held back. */
export function untrustedFieldClass(plugin: string, field: string): FieldClass {
  return Object.hasOwn(UNTRUSTED_PLUGIN_FIELDS, `${plugin}.${field}`)
    ? (UNTRUSTED_PLUGIN_FIELDS[`${plugin}.${field}`] as FieldClass)
    : HELD.notOffered
}
