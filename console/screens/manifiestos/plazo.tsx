import type { ManifestView } from '../../api/types.ts'
import { count, dateTime } from '../../format.ts'

/** The returns window of a manifest: until when, and how many business days are left. */
export function Deadline({
  manifest,
}: {
  manifest: Pick<ManifestView, 'plazo_devoluciones' | 'dias_habiles_restantes' | 'estado'>
}) {
  if (manifest.plazo_devoluciones === null) return <span class="tenue">Sin plazo</span>
  const left = manifest.dias_habiles_restantes ?? 0
  return (
    <span class={left === 0 ? 'vencido' : left <= 2 ? 'por-vencer' : undefined}>
      {left === 0 ? 'Vencido' : count(left, 'día hábil', 'días hábiles')} · hasta{' '}
      {dateTime(manifest.plazo_devoluciones)}
    </span>
  )
}
