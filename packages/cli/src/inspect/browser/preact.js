// preact and htm, bound once: `html` tagged templates instead of JSX, so the page needs no
// compile step of its own beyond the bundler that inlines these libraries.
import { h, render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';

export const html = htm.bind(h);
export { render, useEffect, useMemo, useRef, useState };
