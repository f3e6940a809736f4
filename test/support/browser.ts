import { afterAll, beforeAll, describe } from 'bun:test'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'

/** Debian's Chromium (`apt-get install chromium`), or another the machine names in CHROMIUM_PATH. */
export const chromiumPath: string | undefined =
  process.env.CHROMIUM_PATH ?? Bun.which('chromium') ?? Bun.which('chromium-browser') ?? undefined

/**
 * Why the suites that drive a real browser are skipped on this machine, or undefined when it has one.
 * `.ci/run` installs Debian's chromium; a fresh machine without it reports them skipped, never failed.
 */
export const browserMissing: string | undefined = chromiumPath
  ? undefined
  : 'no Chromium found (apt-get install -y chromium; .ci/run does), or set CHROMIUM_PATH'

/** `describe`, skipped with the reason in its title when the machine has no Chromium. */
export function describeWithBrowser(title: string, body: () => void): void {
  if (browserMissing) describe.skip(`${title} — skipped: ${browserMissing}`, body)
  else describe(title, body)
}

/** Where browser tests keep their screenshots (test-artifacts/, ignored by git). */
export function artifactPath(name: string): string {
  const dir = join(import.meta.dir, '..', '..', 'test-artifacts', 'web')
  mkdirSync(dir, { recursive: true })
  return join(dir, name)
}

/** axe-core's browser build, from node_modules (a devDependency): no CDN. */
let axeSource: string | undefined
const AXE_PATH = '/__test__/axe.min.js'

/**
 * The accessibility violations axe-core finds in `page` as it stands, of impact serious or critical, one
 * line each (`rule: what it says — the elements`). axe is served to the page on the page's own origin
 * (a route fulfilled from node_modules, so the page's Content-Security-Policy lets it in, unchanged).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(Bun.resolveSync('axe-core/axe.min.js', import.meta.dir), 'utf8')
  const url = `${new URL(page.url()).origin}${AXE_PATH}`
  // Routes registered last are tried first: this one before the page's guard.
  await page.route(url, (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: axeSource }),
  )
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ url })
  return page.evaluate(async () => {
    const { violations } = await (globalThis as any).axe.run((globalThis as any).document, {
      resultTypes: ['violations'],
    })
    return (violations as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[])
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      )
  })
}

/** Makes `page`'s viewport `width` CSS pixels wide (its height kept). */
function resize(page: Page, width: number): Promise<void> {
  return page.setViewportSize({ width, height: page.viewportSize()?.height ?? 800 })
}

/** How many CSS pixels `page` is wider than its viewport at `width` (0: no sideways scroll). */
export async function overflowAt(page: Page, width: number): Promise<number> {
  await resize(page, width)
  return page.evaluate(() => {
    const window = globalThis as any
    return Math.max(0, window.document.documentElement.scrollWidth - window.innerWidth)
  })
}

/** The smallest text a picture may draw on a phone, in CSS pixels as rendered (its font size × the SVG's scale). */
export const PICTURE_TEXT_MIN_PX = 12

/** Each text in the page's pictures (`.picture svg`, `.score-bar`) rendered under PICTURE_TEXT_MIN_PX: "kind “text” 9.3 px". */
export async function smallPictureText(page: Page): Promise<string[]> {
  return page.evaluate((least) => {
    const document = (globalThis as any).document
    const found: string[] = []
    for (const svg of document.querySelectorAll('.picture svg, svg.score-bar')) {
      const width = svg.getBoundingClientRect().width
      const box = svg.viewBox?.baseVal
      if (!width || !box?.width) continue
      for (const text of svg.querySelectorAll('text')) {
        const px = Number.parseFloat((globalThis as any).getComputedStyle(text).fontSize) * (width / box.width)
        const kind = svg.closest('[data-picture]')?.getAttribute('data-picture') ?? 'score-bar'
        if (px < least - 0.05) found.push(`${kind} “${text.textContent}” ${px.toFixed(1)} px`)
      }
    }
    return [...new Set(found)]
  }, PICTURE_TEXT_MIN_PX)
}

/** The widths every view is checked at: a desktop, a phone, the narrowest phone. */
export const VIEW_WIDTHS = { desktop: 1280, phone: 375, narrowest: 320 } as const

/**
 * One view of the page checked as a person sees it, at a desktop's width and a phone's: no sideways
 * scroll (at 320 px too), no serious or critical axe violation, no picture text under 12 px on the phone, and a full-page screenshot at each of
 * 1280 and 375 px (`test-artifacts/web/<name>-<width>.png`); then on the phone in the dark colour
 * scheme too (axe, and `<name>-375-dark.png`). Answers the problems found (none: `[]`); the viewport
 * and colour scheme are put back as they were.
 */
export async function checkView(page: Page, name: string): Promise<string[]> {
  const before = page.viewportSize()
  const problems: string[] = []
  for (const width of [VIEW_WIDTHS.desktop, VIEW_WIDTHS.phone, VIEW_WIDTHS.narrowest]) {
    const overflow = await overflowAt(page, width)
    if (overflow > 0) problems.push(`${name} at ${width} px: ${overflow} px wider than the screen`)
    if (width === VIEW_WIDTHS.narrowest) continue
    if (width === VIEW_WIDTHS.phone)
      for (const small of await smallPictureText(page)) problems.push(`${name} at ${width} px: picture text ${small}`)
    for (const violation of await axeViolations(page)) problems.push(`${name} at ${width} px: ${violation}`)
    // From the top: a full-page shot taken scrolled down draws the sticky status line mid-page.
    await page.evaluate(() => (globalThis as any).scrollTo(0, 0))
    await page.screenshot({ path: artifactPath(`${name}-${width}.png`), fullPage: true })
  }
  await resize(page, VIEW_WIDTHS.phone)
  await page.emulateMedia({ colorScheme: 'dark' })
  for (const violation of await axeViolations(page)) problems.push(`${name} at 375 px, dark: ${violation}`)
  await page.screenshot({ path: artifactPath(`${name}-${VIEW_WIDTHS.phone}-dark.png`), fullPage: true })
  await page.emulateMedia({ colorScheme: null })
  if (before) await page.setViewportSize(before)
  return problems
}

/** What an injected test wallet was asked to sign: transactions counted, messages as text. */
export interface WalletAsked {
  transactions: number
  messages: string[]
}

/**
 * A wallet-standard Solana wallet named "Test Wallet" in every page of `target` (a page or a whole browser
 * context), holding the keypair at `keypairPath`. The key stays in this process, as an extension keeps it
 * out of the page: the page asks it to sign (`solana:signTransaction`, `solana:signMessage`) through
 * exposed functions, and `asked` counts what it was asked.
 */
export async function injectSolanaWallet(
  target: Pick<BrowserContext, 'exposeFunction' | 'addInitScript'>,
  keypairPath: string,
): Promise<WalletAsked> {
  const kit = await import('@solana/kit')
  const owner = await kit.createKeyPairSignerFromBytes(
    Uint8Array.from(JSON.parse(readFileSync(keypairPath, 'utf8')) as number[]),
  )
  const asked: WalletAsked = { transactions: 0, messages: [] }
  await target.exposeFunction('testWalletSign', async (transactionB64: string) => {
    asked.transactions++
    const transaction = kit.getTransactionDecoder().decode(Buffer.from(transactionB64, 'base64'))
    return kit.getBase64EncodedWireTransaction(await kit.partiallySignTransaction([owner.keyPair], transaction))
  })
  await target.exposeFunction('testWalletSignMessage', async (messageB64: string) => {
    const message = Buffer.from(messageB64, 'base64')
    asked.messages.push(message.toString())
    return Buffer.from(await kit.signBytes(owner.keyPair.privateKey, message)).toString('base64')
  })
  await target.addInitScript(
    ({ address, publicKey }) => {
      const page = globalThis as any
      const fromB64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
      const toB64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
      const account = {
        address,
        publicKey: Uint8Array.from(publicKey),
        chains: ['solana:localnet'],
        features: ['solana:signTransaction', 'solana:signMessage'],
      }
      const wallet = {
        version: '1.0.0',
        name: 'Test Wallet',
        icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=',
        chains: ['solana:localnet'],
        accounts: [account],
        features: {
          'standard:connect': { version: '1.0.0', connect: async () => ({ accounts: [account] }) },
          'standard:events': { version: '1.0.0', on: () => () => {} },
          'solana:signTransaction': {
            version: '1.0.0',
            supportedTransactionVersions: ['legacy', 0],
            signTransaction: async (...inputs: { transaction: Uint8Array }[]) =>
              Promise.all(
                inputs.map(async ({ transaction }) => ({
                  signedTransaction: fromB64(await page.testWalletSign(toB64(transaction))),
                })),
              ),
          },
          'solana:signMessage': {
            version: '1.0.0',
            signMessage: async (...inputs: { message: Uint8Array }[]) =>
              Promise.all(
                inputs.map(async ({ message }) => ({
                  signedMessage: message,
                  signature: fromB64(await page.testWalletSignMessage(toB64(message))),
                })),
              ),
          },
        },
      }
      const register = ({ register }: { register: (wallet: unknown) => void }) => register(wallet)
      page.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: register }))
      page.addEventListener('wallet-standard:app-ready', (event: CustomEvent) => register(event.detail))
    },
    { address: owner.address, publicKey: [...kit.getAddressEncoder().encode(owner.address)] },
  )
  return asked
}

/** A headless Chromium for a describe block, kept offline: see `offlineBrowser`. */
export interface OfflineBrowser {
  /** The browser, launched before the block's tests and closed after them. */
  readonly browser: Browser
  /** Every URL a page asked for outside the allowed origins (refused): a test expects it empty. */
  outside: string[]
  /** Lets `target` (a page or a whole context) load only from the allowed origins; the rest is refused and counted. */
  guard<T extends Pick<Page, 'route'>>(target: T): Promise<T>
}

/**
 * Launches Debian's Chromium headless before the enclosing describe block's tests (closed after them),
 * its pages allowed to load only from `allowed()` (the service and the sandbox RPC the page names).
 */
export function offlineBrowser(allowed: () => string[]): OfflineBrowser {
  let browser: Browser | undefined
  const outside: string[] = []
  beforeAll(async () => {
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: chromiumPath!, headless: true, args: ['--no-sandbox'] })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })
  return {
    get browser() {
      if (!browser) throw new Error('the browser is launched in beforeAll')
      return browser
    },
    outside,
    async guard(target) {
      const origins = allowed().map((url) => new URL(url).origin)
      await target.route('**/*', (route) => {
        const url = route.request().url()
        if (origins.includes(new URL(url).origin)) return route.continue()
        outside.push(url)
        return route.abort()
      })
      return target
    },
  }
}

/**
 * Clicks `selector` on `page` and answers the JSON of the paid answer to `path` the page then received,
 * once `card` shows; no answer fails with what the page's status line says.
 */
export async function paidAnswer<T = any>(page: Page, selector: string, path: string, card: string): Promise<T> {
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === path && response.ok(), {
    timeout: 40_000,
  })
  await page.locator(selector).first().click()
  const response = await answered.catch(async (error) => {
    const status = await page.locator('#status').textContent()
    throw new Error(`${path}: no answer; the status line says "${status}"`, { cause: error })
  })
  const body = (await response.json()) as T
  await page.locator(card).waitFor({ timeout: 20_000 })
  return body
}
