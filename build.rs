//! The built-in spec, read from its YAML once at build time and embedded as JSON: a
//! run then reads it about ten times faster (`make bench`, goals (a) and (b)). The
//! YAML stays embedded too, for the positions of error messages and `spec --print`.

use std::path::Path;

fn main() {
    let yaml_path = "checks/ist2-boot.yaml";
    println!("cargo::rerun-if-changed={yaml_path}");
    let yaml = std::fs::read_to_string(yaml_path).expect("checks/ist2-boot.yaml is readable");
    // A spec that does not read as YAML is embedded as `null`: the run then reports
    // it, with its place, from the YAML (`Spec::builtin`), as it would any spec file.
    let json = match serde_yaml::from_str::<serde_json::Value>(&yaml) {
        Ok(v) => serde_json::to_string(&v).expect("a JSON value serializes"),
        Err(_) => "null".to_string(),
    };
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out).join("ist2-boot.json"), json).expect("OUT_DIR is writable");
}
