import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

// The layers of docs/architecture.md, read from the import statements themselves (type imports included):
// kernel ← onchain, attest ← store ← sources ← facts, payments ← pipeline, rendering ← signals ← services
// (the features' logic and the libraries they share) ← http ← plugins' adapters ← app (the composition root).
const ROOT = join(import.meta.dir, '..')

/** Where a production file sits: its rank (a file imports only its own rank or lower) and the unit cycles are counted over. */
interface Place {
  rank: number
  layer: string
  /** The folder (or root file) a file belongs to: `src/kernel`, `plugins/trade`, `signals/honeypot`, `src/app.ts`. */
  unit: string
}

/**
 * The access paths (MCP, ACP, the web page, discovery, metrics) are adapters over the HTTP service, whole;
 * a feature's adapter is its index.ts (the Elysia plugin). Its manifest, service and schemas are below http.
 */
const ACCESS_PATHS = ['acp', 'mcp', 'a2a', 'web', 'discovery', 'metrics']
function isAdapter(path: string): boolean {
  const [area, folder, file] = path.split('/')
  return area === 'plugins' && (ACCESS_PATHS.includes(folder!) || file === 'index.ts')
}

/** The layers, lowest first; a file matches the first pattern that names it. */
const LAYERS: { layer: string; rank: number; matches: (path: string) => boolean }[] = [
  // The runtime adapters (Bun or Deno): beneath everything, the kernel's logger included.
  { layer: 'runtime', rank: -1, matches: (path) => path.startsWith('src/runtime/') },
  { layer: 'kernel', rank: 0, matches: (path) => path.startsWith('src/kernel/') },
  { layer: 'onchain', rank: 1, matches: (path) => /^src\/(onchain|attest)\//.test(path) },
  { layer: 'store', rank: 2, matches: (path) => path.startsWith('src/store/') },
  { layer: 'sources', rank: 3, matches: (path) => path.startsWith('src/sources/') },
  { layer: 'facts', rank: 4, matches: (path) => /^src\/(facts|payments)\//.test(path) },
  { layer: 'pipeline', rank: 5, matches: (path) => /^src\/(pipeline|rendering)\//.test(path) },
  { layer: 'signals', rank: 6, matches: (path) => path.startsWith('signals/') },
  {
    layer: 'services',
    rank: 7,
    matches: (path) =>
      /^src\/(feeds|launchpad-index|news)\//.test(path) ||
      path === 'src/context.ts' ||
      (path.startsWith('plugins/') && !isAdapter(path)),
  },
  { layer: 'http', rank: 8, matches: (path) => path.startsWith('src/http/') },
  { layer: 'plugins', rank: 9, matches: isAdapter },
  { layer: 'app', rank: 10, matches: (path) => /^src\/[^/]+\.ts$/.test(path) },
]

function placeOf(path: string): Place | undefined {
  const layer = LAYERS.find((candidate) => candidate.matches(path))
  if (!layer) return undefined
  const parts = path.split('/')
  const unit = parts.length === 2 ? path : `${parts[0]}/${parts[1]}`
  return { rank: layer.rank, layer: layer.layer, unit }
}

/** Every production .ts file (tests excluded: a test may compose any layers). */
function productionFiles(): string[] {
  return ['src', 'plugins', 'signals'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => join(dir, name))
      .filter((path) => statSync(join(ROOT, path)).isFile()),
  )
}

/** The repository paths a file imports: static, type-only and dynamic imports and re-exports alike. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specifiers = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (match) => match[1]!,
  )
  return specifiers
    .map((specifier) => relative(ROOT, resolve(dirname(join(ROOT, file)), specifier)))
    .filter((path) => path.endsWith('.ts') && existsSync(join(ROOT, path)))
}

const FILES = productionFiles()
const EDGES = FILES.flatMap((from) => importsOf(from).map((to) => ({ from, to })))

/** The strongly connected components of more than one node (Tarjan): each is a cycle. */
function cycles(edges: { from: string; to: string }[]): string[][] {
  const next = new Map<string, Set<string>>()
  for (const { from, to } of edges) if (from !== to) next.set(from, (next.get(from) ?? new Set()).add(to))
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let counter = 0
  const visit = (node: string) => {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(node, Math.min(low.get(node)!, low.get(target)!))
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!))
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1) found.push(component.sort())
    }
  }
  for (const node of next.keys()) if (!index.has(node)) visit(node)
  return found
}

describe('layers', () => {
  test('every production file sits in a layer', () => {
    expect(FILES.filter((file) => placeOf(file) === undefined)).toEqual([])
  })

  test('no import points up a layer (type imports included)', () => {
    const against = EDGES.flatMap(({ from, to }) => {
      const source = placeOf(from)
      const target = placeOf(to)
      if (!source || !target || target.rank <= source.rank) return []
      return [`${from} (${source.layer}) → ${to} (${target.layer})`]
    })
    expect(against).toEqual([])
  })

  test('the kernel imports nothing else in the repository but the runtime adapters', () => {
    const outside = EDGES.filter(
      ({ from, to }) => from.startsWith('src/kernel/') && !/^src\/(kernel|runtime)\//.test(to),
    )
    // package.json (the version) is read as JSON, not a .ts file: allowed.
    expect(outside.map(({ from, to }) => `${from} → ${to}`)).toEqual([])
  })

  test('the runtime adapters import nothing else in the repository', () => {
    const outside = EDGES.filter(({ from, to }) => from.startsWith('src/runtime/') && !to.startsWith('src/runtime/'))
    expect(outside.map(({ from, to }) => `${from} → ${to}`)).toEqual([])
  })

  test('only the runtime adapters name a runtime: no Bun or Deno global, bun: module or "bun" import elsewhere', () => {
    // import.meta.dir is Bun's alone (import.meta.dirname is on both).
    const RUNTIME_API =
      /\b(Bun|Deno)\.[a-zA-Z]|from\s*['"]bun(:[a-z]+)?['"]|import\(\s*['"]bun(:[a-z]+)?['"]|import\.meta\.dir\b/
    const offenders = FILES.filter(
      (file) => !file.startsWith('src/runtime/') && RUNTIME_API.test(readFileSync(join(ROOT, file), 'utf8')),
    )
    expect(offenders).toEqual([])
    // The rule reads what it checks: the adapters do name Bun.
    expect(RUNTIME_API.test(readFileSync(join(ROOT, 'src/runtime/serve.ts'), 'utf8'))).toBe(true)
  })

  test('no cycle between files', () => {
    expect(cycles(EDGES)).toEqual([])
  })

  test('no cycle between folders', () => {
    const units = EDGES.map(({ from, to }) => ({ from: placeOf(from)?.unit ?? from, to: placeOf(to)?.unit ?? to }))
    expect(cycles(units)).toEqual([])
  })

  test('nothing in production imports test code or bun:test', () => {
    const offenders = FILES.filter((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8')
      return /from\s*['"]bun:test['"]/.test(text) || importsOf(file).some((path) => path.startsWith('test/'))
    })
    expect(offenders).toEqual([])
  })

  test('the checker sees what it checks: an upward import and a cycle are found', () => {
    // Guards against a rule that passes because it reads nothing.
    expect(EDGES.length).toBeGreaterThan(500)
    expect(placeOf('src/http/front-door.ts')!.rank).toBeGreaterThan(placeOf('src/payments/gate.ts')!.rank)
    expect(
      cycles([
        { from: 'a', to: 'b' },
        { from: 'b', to: 'a' },
        { from: 'b', to: 'c' },
      ]),
    ).toEqual([['a', 'b']])
  })
})
