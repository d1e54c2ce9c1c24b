/*
 * Instagram's REST answers write media and comment pks as bare numbers past 2^53 ("pk":
 * 2317006284167526179), which JSON.parse rounds. Integers of 16 or more digits outside strings are read
 * as strings instead, so every id stays exact; parsers accept ids and counts as digit strings.
 */
export function parseLossless(text: string): unknown {
  return JSON.parse(quoteLongIntegers(text));
}

export function quoteLongIntegers(text: string): string {
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
      continue;
    }
    const isDigit = c >= 48 && c <= 57;
    if (!isDigit && c !== 45) continue;
    let j = i + (c === 45 ? 1 : 0);
    while (j < text.length && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
    const digits = j - i - (c === 45 ? 1 : 0);
    const next = text[j];
    if (next === '.' || next === 'e' || next === 'E') {
      // A fraction or exponent: the whole number stays as it is.
      while (j < text.length && /[0-9.eE+-]/.test(text[j]!)) j++;
    } else if (digits >= 16) {
      out += `${text.slice(from, i)}"${text.slice(i, j)}"`;
      from = j;
    }
    i = j - 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
