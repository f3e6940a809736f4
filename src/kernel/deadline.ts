/**
 * `work`, unless `deadlineAt` (epoch ms) comes first: then it rejects. The timer is always released.
 * For reads that are not a token's facts (those use TokenContext.untilDeadline).
 */
export async function beforeDeadline<T>(work: Promise<T>, deadlineAt: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('deadline: still outstanding when the answer was due')),
          Math.max(0, deadlineAt - Date.now()),
        )
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}
