import { useEffect, useState } from 'preact/hooks'

/**
 * Below this width (a 1024 or 1280 px tablet, a narrow window) lists fold their less important
 * columns into the row beside them, so nothing is cut off and nothing scrolls sideways.
 */
export const NARROW = '(max-width: 1300px)'

/** Whether the window is narrow now; follows the window as it changes (a tablet turned). */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches)
  useEffect(() => {
    const query = window.matchMedia(NARROW)
    const follow = () => setNarrow(query.matches)
    query.addEventListener('change', follow)
    follow()
    return () => query.removeEventListener('change', follow)
  }, [])
  return narrow
}
