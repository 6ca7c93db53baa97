/** A file the library will not take, with a reason a user can act on. */
export class RefusedFile extends Error {
  constructor(
    readonly fileName: string,
    readonly reason: string,
  ) {
    super(`${fileName}: ${reason}`);
    this.name = 'RefusedFile';
  }
}
