// TEMP-STUB
pub fn sender_auth_failed(_a: &[String], _id: &str, _from: &str) -> bool {
    false
}
