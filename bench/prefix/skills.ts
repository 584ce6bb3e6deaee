// P4 with 50 skills (85-skills-and-commands.md K3, issue 25's acceptance): the same scripted session as
// the plain P4 run, with 50 skills in the workspace's `.tack/skills`. The catalog is a system prompt
// section, so every request should carry it unchanged (prefix ratio 1.00), and the first request should
// grow over the plain run's by the catalog section and the `skill` tool's schema, nothing else. Both are
// measured here and printed with the figures.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoggedRequest, LoopbackEntry } from '@tack/llm/testing'
import { measureTackRun } from '../lib/tack-run.ts'
import { isPrefix } from './run.ts'

export const SKILLS = 50

export interface SkillsFigures {
  readonly exitCode: number | null
  readonly requests: number
  readonly held: number
  /** Bytes of the first request's JSON body, with the skills and without. */
  readonly firstBytes: number
  readonly baselineFirstBytes: number
  /** Bytes of the catalog section as sent, with the blank line joining it to the prompt before it. */
  readonly catalogBytes: number
  /** Bytes of the `skill` tool's entry in the request's tools, with its separating comma. */
  readonly toolBytes: number
}

async function writeSkills(workspace: string): Promise<void> {
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(2, '0')}`
    const dir = join(workspace, '.tack', 'skills', name)
    await mkdir(dir, { recursive: true })
    await writeFile(
      join(dir, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Does task number ${i} of the bench's fifty; use it when the task mentions ${name}.\n---\nSteps for ${name}.\n`,
    )
  }
}

type Body = {
  messages: Array<{ role: string; content: unknown }>
  tools?: Array<{ function?: { name?: string } }>
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value))

export async function skillsScenario(
  script: LoopbackEntry[],
  baselineFirst: LoggedRequest,
): Promise<SkillsFigures> {
  const r = await measureTackRun({ script, task: 'run fifty steps', prepare: writeSkills })
  const reqs = r.requests
  let held = 0
  for (let i = 1; i < reqs.length; i++)
    if (isPrefix(reqs[i - 1] as LoggedRequest, reqs[i] as LoggedRequest)) held++
  const first = reqs[0]?.body as Body
  const system = String(first.messages[0]?.content ?? '')
  const catalogAt = system.indexOf('\n\n# Skills\n')
  const catalogText = catalogAt < 0 ? '' : system.slice(catalogAt)
  // as a JSON string's content: the escaping the body adds counts too
  const catalogBytes = catalogText ? bytes(catalogText) - 2 : 0
  const tool = first.tools?.find((t) => t.function?.name === 'skill')
  return {
    exitCode: r.exitCode,
    requests: reqs.length,
    held,
    firstBytes: bytes(first),
    baselineFirstBytes: bytes(baselineFirst.body),
    catalogBytes,
    toolBytes: tool ? bytes(tool) + 1 : 0,
  }
}
