/**
 * Text for XML 1.0: `&`, `<`, `>` and `"` as entities; in attribute values also tab, line feed and
 * carriage return as character references (a parser would turn them into spaces), in text a
 * carriage return (a parser would drop it from a CR LF). Other control characters cannot be
 * written in XML 1.0 at all and are dropped.
 */
export function escapeXml(value: string, inAttribute = true): string {
  const escaped = value
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;');
  return inAttribute ? escaped.replace(/\t/g, '&#9;').replace(/\n/g, '&#10;') : escaped;
}
