import { createApp } from './app.ts'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { createContext } from './context.ts'
import { ManifestError } from './manifest.ts'
import { startServer } from './server.ts'

/** Entry point of `npm start` and of the compiled binary. */
function main(): void {
  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) exit(`configuration error: ${error.message}`)
    throw error
  }
  const ctx = createContext(config)
  let app
  try {
    app = createApp(ctx)
  } catch (error) {
    if (error instanceof ManifestError) exit(`plugin manifest error: ${error.message}`)
    throw error
  }
  const running = startServer(app, ctx)
  ctx.logger.info(
    { url: running.url, profile: config.SOLSENTRY_PROFILE, routes: ctx.registry.routes().length },
    'listening',
  )
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => {
      running.shutdown(signal).then(
        () => process.exit(0),
        (error) => {
          console.error('solsentry: shutdown failed:', error)
          process.exit(1)
        },
      )
    })
}

function exit(message: string): never {
  console.error(`solsentry: ${message}`)
  process.exit(78) // EX_CONFIG
}

main()
