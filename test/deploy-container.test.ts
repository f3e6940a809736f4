import { afterAll, describe, expect, test } from 'bun:test'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { wrapFetchWithPayment } from '@x402/fetch'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { eventually } from './support/eventually.ts'
import { launch } from './support/launch.ts'
import { usdcOf } from './support/x402.ts'

// The service as a container (docs/deploy.md, "A container"). deploy/Containerfile builds on base images
// from a registry, which this machine cannot reach; this test builds the image its run stage describes
// FROM scratch instead: the compiled binary, the shared libraries `ldd` says it links, an /etc/passwd
// whose user 10001 runs it, and /data as a volume that user owns. It runs the image with podman on the
// host network against the sandbox and pays for a quick scan with the official x402 client.
const ROOT = join(import.meta.dir, '..')
const PODMAN = Bun.which('podman')
const RUNC = Bun.which('runc') ?? (existsSync('/usr/sbin/runc') ? '/usr/sbin/runc' : undefined)
const UID = 10001
const IMAGE = `localhost/solsentry-test:${process.pid}`
const VOLUME = `solsentry-test-data-${process.pid}`

const run = (cmd: string[], cwd?: string) => {
  const done = Bun.spawnSync(cmd, { cwd, stdout: 'pipe', stderr: 'pipe' })
  return { ok: done.exitCode === 0, out: done.stdout.toString(), err: done.stderr.toString().trim() }
}

/**
 * podman's run flags for this machine. runc rather than crun when both are there: crun refuses the
 * hybrid cgroup v1 layout of some VMs ("cgroups in hybrid mode not supported"). The rlimits are given
 * explicitly, at most the caller's own: without CAP_SYS_RESOURCE podman's defaults cannot be set.
 */
function runtimeFlags(): string[] {
  const limits = readFileSync('/proc/self/limits', 'utf8')
  const hard = (name: string) => Number(new RegExp(`^${name}\\s+\\S+\\s+(\\d+)`, 'm').exec(limits)?.[1] ?? 1024)
  const nofile = Math.min(hard('Max open files'), 65_536)
  return [
    ...(RUNC ? ['--runtime', RUNC] : []),
    '--ulimit',
    `nofile=${nofile}:${nofile}`,
    '--ulimit',
    `nproc=${Math.min(hard('Max processes'), 4_096)}:${Math.min(hard('Max processes'), 4_096)}`,
  ]
}

const work = mkdtempSync(join(tmpdir(), 'solsentry-container-'))

/** Builds the binary and the scratch image; answers why the container cannot be run here, or undefined. */
function buildImage(): string | undefined {
  if (!PODMAN) return 'podman is not installed (apt-get install -y podman runc)'
  const context = join(work, 'context')
  const rootfs = join(context, 'rootfs')
  const binary = join(rootfs, 'usr/local/bin/solsentry')
  mkdirSync(dirname(binary), { recursive: true })
  const built = run(
    [
      process.execPath,
      'build',
      'src/main.ts',
      '--compile',
      '--minify-whitespace',
      '--minify-syntax',
      '--outfile',
      binary,
    ],
    ROOT,
  )
  if (!built.ok) throw new Error(`bun build --compile failed: ${built.err}`)
  // The libraries the binary links, at the paths the loader looks for them.
  const linked = run(['ldd', binary])
  if (!linked.ok) throw new Error(`ldd failed: ${linked.err}`)
  for (const [, path] of linked.out.matchAll(/(?:=>\s*)?(\/\S+)\s+\(0x/g)) {
    mkdirSync(join(rootfs, dirname(path!)), { recursive: true })
    copyFileSync(path!, join(rootfs, path!))
  }
  mkdirSync(join(rootfs, 'etc'))
  writeFileSync(
    join(rootfs, 'etc/passwd'),
    `root:x:0:0::/:/nonexistent\nsolsentry:x:${UID}:${UID}::/data:/nonexistent\n`,
  )
  writeFileSync(join(rootfs, 'etc/group'), `root:x:0:\nsolsentry:x:${UID}:\n`)
  mkdirSync(join(rootfs, 'tmp'))
  chmodSync(join(rootfs, 'tmp'), 0o1777)
  mkdirSync(join(context, 'data'))
  writeFileSync(
    join(context, 'Containerfile'),
    [
      'FROM scratch',
      'COPY rootfs/ /',
      `COPY --chown=${UID}:${UID} data /data`,
      'ENV HOST=0.0.0.0 PORT=8402 DATA_DIR=/data',
      'VOLUME ["/data"]',
      `USER ${UID}:${UID}`,
      'ENTRYPOINT ["/usr/local/bin/solsentry"]',
    ].join('\n'),
  )
  const image = run([PODMAN, 'build', '--quiet', '--tag', IMAGE, context])
  if (!image.ok) return `podman cannot build an image here: ${image.err.split('\n').at(-1)}`
  // Can this machine run a container at all? The binary itself, with a setting it refuses (exit 78).
  const probe = run([PODMAN, 'run', '--rm', ...runtimeFlags(), '--network', 'host', '--env', 'PORT=eighty', IMAGE])
  if (!probe.err.includes('configuration error: PORT'))
    return `podman cannot run a container here: ${probe.err.split('\n').at(-1)}`
  return undefined
}

const cannot = buildImage()
afterAll(() => {
  if (PODMAN) {
    run([PODMAN, 'volume', 'rm', '--force', VOLUME])
    run([PODMAN, 'rmi', '--force', IMAGE])
  }
  rmSync(work, { recursive: true, force: true })
})

const TITLE = 'the service in a container (a scratch image of the binary, podman, the host network)'
;(cannot ? describe.skip : describe)(cannot ? `${TITLE} — skipped: ${cannot}` : TITLE, () => {
  test('runs as a non-root user with DATA_DIR on a volume, and a paid quick scan passes with the official x402 client', async () => {
    const sandbox = await startSandbox(ephemeralSandboxOptions())
    try {
      const settings: Record<string, string> = { ...sandbox.serviceSettings, HOST: '127.0.0.1', PORT: '0' }
      delete settings.DEMO_WALLET_KEYPAIR
      // The reference files the sandbox's settings name, visible at the same paths inside.
      const files = ['ISSUER_REGISTRY', 'EXCHANGE_WALLETS', 'ECOSYSTEM_ACCOUNTS'].map((name) => settings[name]!)
      const mounts = [...new Set(files.map((file) => dirname(file)))].flatMap((dir) => ['-v', `${dir}:${dir}:ro`])
      const env = Object.entries(settings).flatMap(([name, value]) => ['--env', `${name}=${value}`])
      const container = await launch(
        [
          PODMAN!,
          'run',
          '--rm',
          ...runtimeFlags(),
          '--network',
          'host',
          '-v',
          `${VOLUME}:/data`,
          ...mounts,
          ...env,
          IMAGE,
        ],
        { cwd: work, env: {} },
      )
      try {
        const { client } = await demoPayer(sandbox.file, 'solana')
        const paying = wrapFetchWithPayment(fetch, client)
        const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
        const treasury = () => usdcOf(sandbox, sandbox.file.x402.solana.pay_to)
        const before = await treasury()
        // The service listens before the facilitator has named its rails (503 FACILITATOR_UNAVAILABLE with
        // Retry-After meanwhile, a container's first seconds on a loaded machine): paid calls once it offers them.
        const unpaid = await eventually(
          'the service offers payment',
          async () => {
            const response = await fetch(`${container.url}/scan/quick`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ token_address: mint }),
            })
            await response.body?.cancel()
            return response.status
          },
          (status) => status !== 503,
          { timeoutMs: 30_000, intervalMs: 200 },
        )
        expect(unpaid).toBe(402)
        const answer = await paying(`${container.url}/scan/quick`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token_address: mint }),
        })
        expect(answer.status).toBe(200)
        expect(await answer.json()).toMatchObject({ token_address: mint, structural_risk_grade: 'A' })
        expect(answer.headers.get('payment-response')).toBeTruthy()
        expect(await treasury()).toBe(before + 20_000n)

        // The data the service wrote is on the volume, owned by the user it runs as.
        const mountpoint = run([PODMAN!, 'volume', 'inspect', '--format', '{{.Mountpoint}}', VOLUME]).out.trim()
        for (const file of ['attestation-key.json', 'solsentry.db'])
          expect(statSync(join(mountpoint, file)).uid).toBe(UID)
      } finally {
        container.child.kill('SIGTERM')
        expect(await container.child.exited).toBe(0)
      }
    } finally {
      await sandbox.stop()
    }
  }, 30_000)
})
