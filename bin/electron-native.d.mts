// Types of ./electron-native.mjs (plain JavaScript: npm start runs it before tsx is registered).
export function electronNativeState(
  root: string,
  target: { electron: string; betterSqlite3: string },
): 'ok' | 'missing' | 'stale';
