/** The audit log's action codes as the warehouse says them; an unknown code is shown as it is. */
const ACTIONS: Record<string, string> = {
  'manifiesto.cerrado': 'Cerró el manifiesto',
  'manifiesto.reabierto': 'Reabrió el manifiesto',
  'manifiesto.plazo_ampliado': 'Amplió el plazo de devoluciones',
  'devolucion.registrada': 'Registró la devolución',
  'devolucion.registrada_y_aprobada': 'Registró y aprobó la devolución',
  'devolucion.aprobada': 'Aprobó la devolución',
  'devolucion.rechazada': 'Rechazó la devolución',
  'devolucion.anulada': 'Anuló la devolución',
  'conflicto.aceptado': 'Aceptó el conflicto',
  'conflicto.descartado': 'Descartó el conflicto',
  'concepto.creado': 'Creó el concepto',
  'concepto.modificado': 'Cambió el concepto',
  'factura.actualizacion_automatica': 'Actualizó la factura con un lote nuevo',
  'factura.impresa': 'Imprimió la factura',
  'factura.reimpresa': 'Imprimió una copia de la factura',
  'usuario.creado': 'Creó el usuario',
  'usuario.modificado': 'Cambió el usuario',
  'usuario.contrasena_cambiada': 'Cambió su contraseña',
  'sesion.iniciada': 'Entró a la consola',
  'usuario.contrasena_restablecida': 'Restableció la contraseña',
  'usuario.desbloqueado': 'Desbloqueó al usuario',
  'sesion.fallida': 'Intento de entrada fallido',
  'sesion.bloqueada': 'Usuario bloqueado por intentos fallidos',
  'reemision.confirmada': 'Confirmó la re-emisión',
  'reemision.descartada': 'Descartó la sospecha de re-emisión',
  'deposito.registrado': 'Registró el depósito',
  'deposito.modificado': 'Cambió el depósito',
  'deposito.anulado': 'Anuló el depósito',
  'deposito.comprobante': 'Subió la foto de la boleta',
  'ajuste.registrado': 'Ajustó centavos',
}

export function actionName(code: string): string {
  return ACTIONS[code] ?? code
}
