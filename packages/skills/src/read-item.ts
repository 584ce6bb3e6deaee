// One SKILL.md or command file → a KnowHowItem, or warnings saying why not (85-skills-and-commands.md K1,
// C1, C2). Reading is pure: the caller found the file, read it (bounded) and knows whose folder it is.
import { booleanField, parseFrontMatter, stringField, toolListField } from './front-matter.ts'
import type { KnowHowItem, KnowHowScope, KnowHowWarning } from './types.ts'

/** K1: lower-case letters, digits and hyphens, at most 64 characters. */
export const SKILL_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/
/** K1: what a description may hold; a longer one is cut there, with a warning. */
export const DESCRIPTION_MAX_CHARS = 1024

export interface ItemOrigin {
  /** The file, absolute. */
  readonly file: string
  /** A skill's folder / a command file's folder. */
  readonly dir: string
  readonly scope: KnowHowScope
  /** The folder it was found under, as people write it (`~/.claude/skills`). */
  readonly source: string
}

export interface ReadResult {
  readonly item?: KnowHowItem
  readonly warnings: readonly KnowHowWarning[]
}

/**
 * A skill from its SKILL.md text. `folderName` is the name of the folder holding it: a `name` that
 * differs is a warning (the front matter's name is used, as Claude Code does), a missing or malformed
 * `name` or a missing `description` skips the skill.
 */
export function readSkill(text: string, folderName: string, origin: ItemOrigin): ReadResult {
  const { file } = origin
  const fm = parseFrontMatter(text, file)
  const warnings: KnowHowWarning[] = fm.warning ? [fm.warning] : []
  if (fm.warning) return { warnings: [...warnings, { file, message: 'skill skipped' }] }
  const name = stringField(fm.data, 'name', file, warnings)
  const description = stringField(fm.data, 'description', file, warnings)
  if (!name) return { warnings: [...warnings, { file, key: 'name', message: 'missing; skill skipped' }] }
  if (!SKILL_NAME.test(name))
    return {
      warnings: [
        ...warnings,
        {
          file,
          key: 'name',
          message: `${JSON.stringify(name)} is not lower-case letters, digits and hyphens (at most 64); skill skipped`,
        },
      ],
    }
  if (!description)
    return { warnings: [...warnings, { file, key: 'description', message: 'missing; skill skipped' }] }
  if (name !== folderName)
    warnings.push({
      file,
      key: 'name',
      message: `${JSON.stringify(name)} differs from its folder ${JSON.stringify(folderName)}; known as ${name}`,
    })
  return {
    item: itemOf(
      'skill',
      name,
      boundDescription(description, file, warnings),
      fm.data,
      fm.body,
      origin,
      warnings,
    ),
    warnings,
  }
}

/**
 * A prompt command from its file's text, named by the caller (`review`, `frontend:component`). Front
 * matter is optional; without a `description` the body's first non-empty line stands in, as Claude Code
 * shows it. Front matter that cannot be read is a warning and the whole file is the body.
 */
export function readCommand(text: string, name: string, origin: ItemOrigin): ReadResult {
  const { file } = origin
  const fm = parseFrontMatter(text, file)
  const warnings: KnowHowWarning[] = fm.warning ? [fm.warning] : []
  const body = fm.warning ? text : fm.body
  const described = stringField(fm.data, 'description', file, warnings)
  const description = described ?? firstLineOf(body) ?? `/${name}`
  return {
    item: itemOf(
      'command',
      name,
      boundDescription(description, file, warnings),
      fm.data,
      body,
      origin,
      warnings,
    ),
    warnings,
  }
}

function itemOf(
  kind: KnowHowItem['kind'],
  name: string,
  description: string,
  data: Readonly<Record<string, unknown>>,
  body: string,
  origin: ItemOrigin,
  warnings: KnowHowWarning[],
): KnowHowItem {
  const { file } = origin
  const argumentHint = stringField(data, 'argument-hint', file, warnings)
  const model = stringField(data, 'model', file, warnings)
  return Object.freeze({
    kind,
    name,
    description,
    scope: origin.scope,
    file,
    dir: origin.dir,
    source: origin.source,
    ...(argumentHint ? { argumentHint } : {}),
    allowedTools: Object.freeze(toolListField(data, 'allowed-tools', file, warnings)),
    ...(model ? { model } : {}),
    disableModelInvocation: booleanField(data, 'disable-model-invocation', file, warnings) ?? false,
    userInvocable: booleanField(data, 'user-invocable', file, warnings) ?? true,
    frontMatter: Object.freeze({ ...data }),
    body,
  })
}

function boundDescription(text: string, file: string, warnings: KnowHowWarning[]): string {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  if (oneLine.length <= DESCRIPTION_MAX_CHARS) return oneLine
  warnings.push({
    file,
    key: 'description',
    message: `longer than ${DESCRIPTION_MAX_CHARS} characters; cut there`,
  })
  return oneLine.slice(0, DESCRIPTION_MAX_CHARS)
}

function firstLineOf(body: string): string | undefined {
  for (const line of body.split('\n')) {
    const t = line.replace(/^#+\s*/, '').trim()
    if (t) return t.length > 200 ? `${t.slice(0, 199)}…` : t
  }
  return undefined
}
