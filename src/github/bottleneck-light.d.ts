// bottleneck/light.js is Bottleneck without its Redis clustering; its package types only the full
// entry, whose API the light build shares.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck';
  export default Bottleneck;
}
