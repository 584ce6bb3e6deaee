// A throw-away PostgreSQL cluster: `initdb` into a temporary folder, `postgres` on a free loopback port with
// password (SCRAM) authentication, stopped and removed by `stop()`. Tests create a database each
// (`createDatabase`) so they never see each other's tables. Uses Debian's packaged binaries
// (/usr/lib/postgresql/<major>/bin, installed by .ci/run) or whatever `pg_config --bindir` names.
//
// PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user (which Debian's
// package creates) and every binary runs through `runuser`. fsync is off: a test cluster's durability is
// not what is tested, and it keeps 2 shared cores free for the tests.
import { execFileSync, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface ThrowawayCluster {
  /** `postgres://tack:<password>@127.0.0.1:<port>/postgres` */
  readonly url: string
  readonly host: string
  readonly port: number
  readonly user: string
  readonly password: string
  /** A fresh, empty database; returns its URL. */
  createDatabase(name?: string): Promise<string>
  /** Stops the server at once (no checkpoint) and removes its folder. */
  stop(): void
}

/** The folder holding `initdb`, `pg_ctl` and `postgres`, or undefined when PostgreSQL is not installed. */
export function postgresBinDir(): string | undefined {
  const debian = '/usr/lib/postgresql'
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v) && existsSync(join(debian, v, 'bin', 'postgres')))
      .sort((a, b) => Number(b) - Number(a))
    if (majors[0]) return join(debian, majors[0], 'bin')
  }
  const r = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' })
  const dir = r.status === 0 ? r.stdout.trim() : ''
  return dir && existsSync(join(dir, 'postgres')) ? dir : undefined
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const bin = postgresBinDir()
  if (!bin)
    throw new Error(
      "PostgreSQL is not installed: install Debian's `postgresql` package (.ci/run does) or put pg_config on PATH",
    )
  const asRoot = process.getuid?.() === 0
  const root = mkdtempSync(join(tmpdir(), 'tack-pg-'))
  const data = join(root, 'data')
  const password = randomBytes(12).toString('hex')
  const pwfile = join(root, 'pw')
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 })
  const run = (file: string, args: string[]): void => {
    const [cmd, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, file), ...args]]
      : [join(bin, file), args]
    const r = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    if (r.status !== 0)
      throw new Error(
        `${file} ${args.join(' ')} failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout).trim()}`,
      )
  }
  if (asRoot) {
    chownSync(root, uidOf('postgres'), -1)
    chownSync(pwfile, uidOf('postgres'), -1)
  }
  const user = 'tack'
  run('initdb', [
    '-D',
    data,
    '-U',
    user,
    '--auth=scram-sha-256',
    `--pwfile=${pwfile}`,
    '-E',
    'UTF8',
    '--no-sync',
  ])
  rmSync(pwfile)
  const port = await freePort()
  const options = [
    `-p ${port}`,
    `-k ${root}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ')
  run('pg_ctl', ['-D', data, '-o', options, '-w', '-t', '30', '-l', join(root, 'server.log'), 'start'])
  const host = '127.0.0.1'
  const url = `postgres://${user}:${password}@${host}:${port}/postgres`
  let stopped = false
  let counter = 0
  const stop = (): void => {
    if (stopped) return
    stopped = true
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop'])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }
  process.once('exit', stop)
  return {
    url,
    host,
    port,
    user,
    password,
    async createDatabase(name) {
      const db = name ?? `t_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`
      if (!/^[a-z_][a-z0-9_]*$/.test(db)) throw new Error(`not a plain database name: ${db}`)
      const { default: pg } = await import('pg')
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        await client.query(`CREATE DATABASE ${db}`)
      } finally {
        await client.end()
      }
      return `postgres://${user}:${password}@${host}:${port}/${db}`
    },
    stop,
  }
}

function uidOf(name: string): number {
  return Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim())
}

/** Runs one statement on the database at `url` with a client of its own (tests' set-up and checks). */
export async function runSql(url: string, text: string): Promise<import('pg').QueryResult> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await client.query(text)
  } finally {
    await client.end()
  }
}
