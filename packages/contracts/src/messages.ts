/**
 * Texts the spec names, written exactly as the spec writes them (typos and double spaces included).
 * Browser and server both read them from here so a direct API call gets the same words as the form.
 */
export const MESSAGES = {
  nameTooShort: 'Name should be more then 5 character',
  weakPassword: 'Password must have one lowercase, one uppercase and 6 characters or longer.',
  signupSuccess: 'Signup  successful !',
  loginSuccess: 'Login successful !',
  logoutSuccess: 'Logout successful!',
  somethingWentWrong: 'Something went wrong !',
  addProductFailed: 'Something went wrong. Try again.',
  productAdded: 'Product added successfully!',
  productUpdated: 'Product Updated successfully!',
  orderCanceled: 'Order canceled',
  deleteConfirm: 'Do you want to Delete this?',
  deleted: 'Deleted !',
  notDeleted: ' not Delete !',
  moqTitle: 'Minimum quantity not met',
  moqText: (minquantity: number) => `You must buy at least ${minquantity} units.`,
  stockTitle: 'sorry supply is short',
  stockText: (mainquantity: number) => `we have only ${mainquantity} units.`,
  errorTitle: 'Error',
  cartEmpty: 'Cart is Empty',
  noProductFound: 'No Product Found !',
  notFoundHeading: 'Page not found currently',
  notFoundText: "Sorry, we can't find such page.",
} as const;
