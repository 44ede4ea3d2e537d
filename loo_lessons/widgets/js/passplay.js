// @ts-check
export default { render() {} };
