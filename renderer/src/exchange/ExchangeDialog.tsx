/** Workbook export and import through a preview table; the service's own export. */
export function ExchangeDialog() {
  return null;
}
