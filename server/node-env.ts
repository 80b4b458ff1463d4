/**
 * Production React unless asked otherwise. React and react-dom choose their development or
 * production build from NODE_ENV when they are first loaded, and nothing set it for `npm start`:
 * every user of the default start got React's development renderer (~2× the CPU per page, issue
 * 13). server/main.ts imports this module first, so it runs before anything loads React (ES
 * modules evaluate in the order of their imports). NODE_ENV=development or test still wins.
 */
process.env.NODE_ENV ??= 'production'

export {}
