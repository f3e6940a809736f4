import { readFile } from 'node:fs/promises'
import { RUNTIME } from './runtime.ts'

/**
 * A file the service ships (a browser bundle from node_modules), as a response body. `embed` is the
 * caller's own `import(path, { with: { type: 'file' } })` — Bun then embeds the file in the single binary
 * and answers its path —, run on Bun only: Deno has no file imports, and reads `onDisk` (the same file)
 * once, keeping its bytes.
 */
export function shippedFile(embed: () => Promise<{ default: unknown }>, onDisk: URL): () => Promise<Blob | Uint8Array> {
  if (RUNTIME === 'bun') {
    const path = embed().then((module) => String(module.default))
    return async () => Bun.file(await path)
  }
  let bytes: Promise<Uint8Array> | undefined
  return () => {
    bytes ??= readFile(onDisk)
    bytes.catch(() => (bytes = undefined))
    return bytes
  }
}

/** The browser bundle cannot be had on this runtime: why, and what to do. */
export class BundleUnavailable extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BundleUnavailable'
  }
}

export interface BrowserBundleOptions {
  /** The entry point's file, bundled on first use by Bun's bundler. */
  entry: string
  /** The bundle `bun build` wrote ahead of time: what the compiled binary embeds, and what Deno serves. */
  prebuilt: string
  /** Replaced in the bundle's code, as `bun build --define` does. */
  define: Record<string, string>
}

/**
 * A browser script bundled from `entry`: on Bun, the prebuilt file when the single binary embeds it
 * (matched by its name), else bundled now by `Bun.build`; on Deno, which has no bundler at run time
 * (`deno bundle` would fetch esbuild from the npm registry), the prebuilt file, or BundleUnavailable
 * naming the command that writes it.
 */
export async function browserBundle({ entry, prebuilt, define }: BrowserBundleOptions): Promise<string> {
  const name = prebuilt.slice(prebuilt.lastIndexOf('/') + 1, prebuilt.lastIndexOf('.'))
  if (RUNTIME === 'bun') {
    const embedded = Bun.embeddedFiles.find((file) => (file as Blob & { name?: string }).name?.startsWith(name))
    if (embedded) return embedded.text()
    const built = await Bun.build({ entrypoints: [entry], target: 'browser', minify: true, define })
    if (!built.success) throw new Error(`the browser script did not build: ${built.logs.join('\n')}`)
    return built.outputs[0]!.text()
  }
  // Named from its folder, not the server's absolute path: the message is a public answer.
  const shown = prebuilt.split('/').slice(-2).join('/')
  try {
    return await readFile(prebuilt, 'utf8')
  } catch {
    throw new BundleUnavailable(
      `the page's script is bundled by Bun ahead of time on ${RUNTIME}: run \`npm run build:web\` (it writes ${shown})`,
    )
  }
}
