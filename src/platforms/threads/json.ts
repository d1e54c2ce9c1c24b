/*
 * The app's private API writes ids as bare JSON numbers past 2^53 ("pk": 3143857175171939857), which
 * JSON.parse rounds into other ids. Before parsing, integer literals of 16 digits or more outside strings
 * are turned into strings; everything else (strings, short numbers, floats) is left as written.
 */
export function parseJsonKeepingIds(text: string): unknown {
  return JSON.parse(quoteLongIntegers(text));
}

export function quoteLongIntegers(text: string): string {
  let out = '';
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
      continue;
    }
    const isDigit = c >= 48 && c <= 57;
    if (!isDigit && c !== 45 /* - */) continue;
    let j = i + (c === 45 ? 1 : 0);
    while (j < text.length && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
    const digits = j - i - (c === 45 ? 1 : 0);
    const next = text[j];
    // Only a whole integer literal: a fraction or an exponent keeps the number a number.
    if (digits >= 16 && next !== '.' && next !== 'e' && next !== 'E') {
      out += `${text.slice(last, i)}"${text.slice(i, j)}"`;
      last = j;
    }
    i = j - 1;
  }
  return last === 0 ? text : out + text.slice(last);
}
